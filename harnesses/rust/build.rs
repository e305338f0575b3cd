//! Records the crate versions from Cargo.lock and the compiler version for `list` / env facts.
use std::{env, fs, path::Path, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
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
    println!("cargo:rustc-env=SERBENCH_SOURCE_FP={:016x}", fingerprint(&ver));
    println!("cargo:rustc-env=SERBENCH_PROFILE={}", env::var("PROFILE").unwrap_or_default());
    println!("cargo:rustc-env=SERBENCH_OPT_LEVEL={}", env::var("OPT_LEVEL").unwrap_or_default());
}

/// FNV-1a over the compiler version, Cargo.toml, Cargo.lock, build.rs and every file under src/
/// (sorted paths): the key under which code-size probes are kept (src/codesize.rs), so a probe
/// built from other sources is never used.
fn fingerprint(rustc: &str) -> u64 {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = vec![Path::new("Cargo.toml").to_path_buf(), "Cargo.lock".into(), "build.rs".into()];
    let mut src = Vec::new();
    walk(Path::new("src"), &mut src);
    src.sort();
    files.extend(src);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    feed(rustc.as_bytes());
    for f in files {
        feed(f.to_string_lossy().as_bytes());
        feed(&fs::read(&f).unwrap_or_default());
    }
    h
}
