//! Helpers shared by the choro-gui tests.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A binary of the `choro` package of this build (`choro`,
/// `choro-testengine`), built first if it is not there.
pub fn binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let bin = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if !bin.is_file() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut c = Command::new(cargo);
        c.args(["build", "-p", "choro", "--bins"]);
        if dir.ends_with("release") {
            c.arg("--release");
        }
        assert!(c.status().unwrap().success(), "cannot build choro");
    }
    bin
}

/// `choro replay FILE` checks the records in `file`; panics with its report if not.
pub fn assert_replays(file: &Path) {
    let out = Command::new(binary("choro"))
        .arg("replay")
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "choro replay refused {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stdout)
    );
}
