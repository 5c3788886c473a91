//! `tether`: the binary. Everything lives in the library; see `lib.rs`.

fn main() -> std::process::ExitCode {
    tether_cli::main_entry()
}
