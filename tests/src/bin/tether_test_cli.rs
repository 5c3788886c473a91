//! The `tether` program built inside the tests package, so that integration tests can run it as
//! a child process (`CARGO_BIN_EXE_tether-test-cli`).

fn main() -> std::process::ExitCode {
    tether_cli::main_entry()
}
