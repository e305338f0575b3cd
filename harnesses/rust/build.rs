//! Records the crate versions from Cargo.lock and the compiler version for `list` / env facts.
use std::{env, fs, path::Path, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=build.rs");
    let lock = fs::read_to_string("Cargo.lock").unwrap_or_default();
    let mut out = String::from("pub const VERSIONS: &[(&str, &str)] = &[\n");
    let mut name: Option<String> = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_string());
        } else if let Some(v) = line.strip_prefix("version = ") {
            if let Some(n) = name.take() {
                out.push_str(&format!("    ({:?}, {:?}),\n", n, v.trim_matches('"')));
            }
        }
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("versions.rs");
    fs::write(dest, out).unwrap();
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let ver = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "rustc (unknown)".into());
    println!("cargo:rustc-env=SERBENCH_RUSTC={ver}");
    println!("cargo:rustc-env=SERBENCH_PROFILE={}", env::var("PROFILE").unwrap_or_default());
    println!("cargo:rustc-env=SERBENCH_OPT_LEVEL={}", env::var("OPT_LEVEL").unwrap_or_default());
}
