//! `choro merge`: the part files of a run split with `--job K/N` put
//! together into what the whole run reports (README.md, "Clusters").

use choro_engine::files::Replace;
use choro_match::parts;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `choro merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The part files, every part of one run once, in any order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// JSON instead of text: a solve's JSON object, a match's JSON summary.
    #[arg(long)]
    pub json: bool,
    /// A solve: write what was proven as a book (positions/solved/README.md).
    #[arg(long)]
    pub book: Option<PathBuf>,
}

/// Merge the part files into lines of output; an error when they are not
/// the parts of one finished run.
pub fn merge(a: &MergeArgs, emit: &mut dyn FnMut(String)) -> Result<(), String> {
    // The book is found writable before the parts are read.
    let book = a
        .book
        .as_deref()
        .map(Replace::begin)
        .transpose()
        .map_err(|e| format!("--book {e}"))?;
    let parts = parts::read_all(&a.files, choro_match::cli::settings_difference)?;
    match parts[0].header["kind"].as_str() {
        Some("solve") => crate::solve::merge_parts(&parts, a.json, book, emit),
        Some("match") if a.book.is_some() => Err("--book is for the parts of a solve".into()),
        Some("match") => choro_match::cli::merge_parts(&parts, a.json, emit),
        _ => Err(format!(
            "{}: a part of an unknown kind {}",
            parts[0].path.display(),
            parts[0].header["kind"]
        )),
    }
}

/// `choro merge`: exit 0 with the merged report, 2 when the files are not
/// the parts of one finished run (nothing is written).
pub fn merge_main(a: &MergeArgs) -> ExitCode {
    let mut lines = Vec::new();
    match merge(a, &mut |l| lines.push(l)) {
        Ok(()) => {
            let mut out = std::io::stdout().lock();
            for l in lines {
                let _ = writeln!(out, "{l}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("choro merge: {e}");
            ExitCode::from(2)
        }
    }
}
