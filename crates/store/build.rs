//! Makes `-lstdc++` resolve to libc++ so the binary links one C++ runtime only.
//!
//! `lbug`'s build script emits `-lstdc++` while the engine itself is compiled against libc++.
//! With both runtimes linked, C++ exceptions bind to libstdc++ and every runtime query error
//! aborts the process. A linker script named `libstdc++.so` containing `INPUT(-lc++ -lc++abi)`
//! placed first on the search path redirects that request. See ARCHITECTURE.md, "Building".

use std::{env, fs, path::PathBuf};

fn main() {
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let shim = out_dir.join("one-cxx-runtime");
    fs::create_dir_all(&shim).expect("create linker shim dir");
    fs::write(shim.join("libstdc++.so"), "INPUT(-lc++ -lc++abi)\n").expect("write linker shim");
    println!("cargo:rustc-link-search=native={}", shim.display());
    println!("cargo:rerun-if-changed=build.rs");
}
