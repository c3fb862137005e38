//! The `main` of a measuring example: its arguments to `run`, and a
//! message and a failing exit status when `run` says what went wrong.

use std::process::ExitCode;

pub fn main_with(run: fn(&[String]) -> Result<(), String>) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
