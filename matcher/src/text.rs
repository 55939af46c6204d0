//! Text from outside (a file, an engine, the command line, a web page) made
//! safe to quote on one output line.

/// At most 40 characters of user input for an error message, with control
/// characters escaped, so a long or binary token cannot flood the output.
/// The protocol server and the GUI server quote their input the same way.
pub fn clip(s: &str) -> String {
    one_line(s, 40)
}

/// At most `max` characters of `s`, `...` after a cut, with control
/// characters escaped: text from outside made safe for one output line.
pub fn one_line(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
