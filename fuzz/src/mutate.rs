//! Mutations: blind byte edits, and edits that know the input is made of
//! lines of whitespace-separated words (swap, drop, repeat a word, put in a
//! word of the protocol or a number at the edge of a range).

use crate::rng::Rng;

/// Numbers at the edges of the ranges the parsers check.
pub const EDGE_NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "-0",
    "+1",
    "2",
    "8",
    "9",
    "16",
    "17",
    "32",
    "33",
    "63",
    "64",
    "65",
    "100",
    "127",
    "128",
    "255",
    "256",
    "1000",
    "1001",
    "65535",
    "65536",
    "65537",
    "1000000",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999999999999",
    "1e3",
    "0x10",
    "007",
    "",
];

/// Bytes that parsers tend to trip on.
const EDGE_BYTES: &[u8] = &[
    0, b'\n', b'\r', b'\t', b' ', 0x0b, 0x0c, 0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xf0, 0xff, b'/',
    b',', b':', b'=', b'+', b'-', b'~', b'x',
];

/// A few random edits of `data` at the byte level. `other` is another input
/// to splice with; `dict` holds words to insert.
pub fn bytes(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8], dict: &[&str], max_len: usize) {
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let len = data.len();
        match rng.below(10) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                data[i] = *rng.pick(EDGE_BYTES);
            }
            2 => {
                let i = rng.below(len + 1);
                let n = 1 + rng.below(8);
                for k in 0..n {
                    let b = if rng.chance(1, 2) {
                        rng.next_u64() as u8
                    } else {
                        *rng.pick(EDGE_BYTES)
                    };
                    data.insert(i + k, b);
                }
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(16));
                data.drain(i..i + n);
            }
            4 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(64));
                let chunk: Vec<u8> = data[i..i + n].to_vec();
                let at = rng.below(len + 1);
                let times = 1 + rng.below(3);
                for _ in 0..times {
                    data.splice(at..at, chunk.iter().copied());
                }
            }
            5 if !dict.is_empty() => {
                let i = rng.below(len + 1);
                let mut w = rng.pick(dict).as_bytes().to_vec();
                if rng.chance(1, 2) {
                    w.insert(0, b' ');
                }
                if rng.chance(1, 2) {
                    w.push(b' ');
                }
                data.splice(i..i, w);
            }
            6 => replace_number(rng, data),
            7 if !other.is_empty() => {
                let cut = rng.below(len + 1);
                let from = rng.below(other.len());
                data.truncate(cut);
                data.extend_from_slice(&other[from..]);
            }
            8 if len > 1 => {
                let (a, b) = (rng.below(len), rng.below(len));
                data.swap(a, b);
            }
            _ => {
                let i = rng.below(len + 1);
                data.insert(i, rng.next_u64() as u8);
            }
        }
        data.truncate(max_len);
    }
}

/// Replace one run of ASCII digits (or insert at a random place) with an
/// edge number.
fn replace_number(rng: &mut Rng, data: &mut Vec<u8>) {
    let runs: Vec<(usize, usize)> = {
        let mut v = Vec::new();
        let mut i = 0;
        while i < data.len() {
            if data[i].is_ascii_digit() {
                let s = i;
                while i < data.len() && data[i].is_ascii_digit() {
                    i += 1;
                }
                v.push((s, i));
            } else {
                i += 1;
            }
        }
        v
    };
    let n = rng.pick(EDGE_NUMBERS).as_bytes().to_vec();
    if runs.is_empty() {
        let i = rng.below(data.len() + 1);
        data.splice(i..i, n);
    } else {
        let (s, e) = *rng.pick(&runs);
        data.splice(s..e, n);
    }
}

/// A few edits of the words of `text`, line structure kept: replace, drop,
/// repeat or swap words, insert a word of `dict` or an edge number, swap,
/// drop or repeat whole lines.
pub fn words(rng: &mut Rng, text: &str, dict: &[&str]) -> String {
    let mut lines: Vec<Vec<String>> = text
        .split('\n')
        .map(|l| l.split(' ').map(str::to_string).collect())
        .collect();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        let li = rng.below(lines.len());
        match rng.below(9) {
            0 => {
                let l = &mut lines[li];
                let i = rng.below(l.len());
                l[i] = rng.pick(dict).to_string();
            }
            1 => {
                let l = &mut lines[li];
                if l.len() > 1 {
                    let i = rng.below(l.len());
                    l.remove(i);
                }
            }
            2 => {
                let l = &mut lines[li];
                let i = rng.below(l.len());
                let w = l[i].clone();
                l.insert(i, w);
            }
            3 => {
                let l = &mut lines[li];
                let (a, b) = (rng.below(l.len()), rng.below(l.len()));
                l.swap(a, b);
            }
            4 => {
                let l = &mut lines[li];
                let i = rng.below(l.len() + 1);
                l.insert(i, rng.pick(EDGE_NUMBERS).to_string());
            }
            5 => {
                let l = &mut lines[li];
                let i = rng.below(l.len() + 1);
                l.insert(i, rng.pick(dict).to_string());
            }
            6 if lines.len() > 1 => {
                lines.remove(li);
            }
            7 => {
                let l = lines[li].clone();
                let at = rng.below(lines.len() + 1);
                lines.insert(at, l);
            }
            _ => {
                let other = rng.below(lines.len());
                lines.swap(li, other);
            }
        }
    }
    lines
        .iter()
        .map(|l| l.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}
