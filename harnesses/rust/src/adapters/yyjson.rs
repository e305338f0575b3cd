//! yyjson (C), through the raw C API of the `yyjson-sys` crate, which bundles yyjson 0.10.0's C
//! sources and compiles them with its build script (`cc`, the release profile's `-O3`). yyjson is
//! not packaged in Debian 12, so this is the project's one yyjson row.
//!
//! Every call is an FFI call that is never inlined: yyjson's accessors and iterators are `static
//! inline` functions in `yyjson.h`, which the crate exports as out-of-line C wrappers
//! (`yyjson_get_type__extern`, ...). A C program calling the same API inlines them, so the tree
//! walk here pays a function call per accessor that a C user's walk does not.
//!
//! The C code cannot panic, so its calls do not go through `lib`; its failures are its return
//! values (a null document, a null output) with the error it reports.

use super::{build_then_encode, Bench, Encoder, JSON};
use crate::hash;
use crate::model::{fold, Val};
use std::ffi::CStr;
use std::os::raw::c_char;
use yyjson_sys as yy;

pub fn benches() -> Vec<Bench> {
    vec![Bench {
        notes: "yyjson (C, via yyjson-sys 0.1.0, bundles yyjson 0.10.0), raw C API: tree = yyjson_read_opts \
                (YYJSON_READ_NOFLAG: strict RFC 8259, not in situ) + walk with yyjson_arr_iter/yyjson_obj_iter + \
                yyjson_doc_free; write = a yyjson_mut_doc built from the harness's object (strings copied in) + \
                yyjson_mut_write_opts (YYJSON_WRITE_PRETTY for json-pretty), output copied into a Vec and freed, \
                + yyjson_mut_doc_free; accessors are out-of-line FFI calls (inline in C)",
        tree: Some(tree),
        write: Some(write),
        ..Bench::new("yyjson", "yyjson-sys", JSON)
    }]
}

// The value types and number subtypes of yyjson.h (#defines with casts, which the crate's bindings
// leave out).
const TYPE_MASK: u8 = 0x07;
const TYPE_NULL: u8 = 2;
const TYPE_BOOL: u8 = 3;
const TYPE_NUM: u8 = 4;
const TYPE_STR: u8 = 5;
const TYPE_ARR: u8 = 6;
const TYPE_OBJ: u8 = 7;
const SUBTYPE_UINT: u8 = 0;
const SUBTYPE_SINT: u8 = 1 << 3;
const SUBTYPE_REAL: u8 = 2 << 3;

/// A yyjson error message (a static C string) with what it belongs to.
fn c_msg(what: &str, msg: *const c_char, pos: Option<usize>) -> String {
    let m = if msg.is_null() {
        "(no message)".into()
    } else {
        // SAFETY: yyjson's messages are static, NUL-terminated C strings.
        unsafe { CStr::from_ptr(msg) }.to_string_lossy()
    };
    match pos {
        Some(p) => format!("{what}: {m} at byte {p}"),
        None => format!("{what}: {m}"),
    }
}

/// The bytes of a string value (yyjson strings carry their length; they may hold U+0000).
///
/// # Safety
/// `v` is a string value of a live document.
#[inline]
unsafe fn str_bytes<'a>(v: *mut yy::yyjson_val) -> &'a [u8] {
    let (p, n) = unsafe { (yy::yyjson_get_str(v), yy::yyjson_get_len(v)) };
    if n == 0 {
        return &[];
    }
    // SAFETY: yyjson_get_str points at `n` bytes owned by the document, which outlives the walk.
    unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) }
}

struct ArrIter(yy::yyjson_arr_iter);

impl Iterator for ArrIter {
    type Item = Result<*mut yy::yyjson_val, String>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        // SAFETY: the iterator was initialised over an array of a live document.
        let v = unsafe { yy::yyjson_arr_iter_next(&mut self.0) };
        (!v.is_null()).then_some(Ok(v))
    }
}

struct ObjIter(yy::yyjson_obj_iter);

impl Iterator for ObjIter {
    type Item = Result<(u64, *mut yy::yyjson_val), String>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        // SAFETY: the iterator was initialised over an object of a live document; a key is a string.
        unsafe {
            let k = yy::yyjson_obj_iter_next(&mut self.0);
            if k.is_null() {
                return None;
            }
            Some(Ok((hash::hash_bytes(hash::STRING, str_bytes(k)), yy::yyjson_obj_iter_get_val(k))))
        }
    }
}

/// The hash of a document's tree (iterative: [`hash::walk`]).
///
/// # Safety
/// `root` is the root value of a live document.
unsafe fn hash_doc(root: *mut yy::yyjson_val) -> Result<u64, String> {
    hash::walk(root, |v| {
        // SAFETY: every value the walk reaches belongs to the live document.
        unsafe {
            let t = yy::yyjson_get_tag(v);
            Ok(match t & TYPE_MASK {
                TYPE_NULL => hash::Node::Leaf(hash::NULL_HASH),
                TYPE_BOOL => hash::Node::Leaf(hash::hash_bool(yy::yyjson_get_bool(v))),
                TYPE_NUM => hash::Node::Leaf(match t & !TYPE_MASK {
                    SUBTYPE_UINT => hash::hash_u64(yy::yyjson_get_uint(v)),
                    SUBTYPE_SINT => hash::hash_i64(yy::yyjson_get_sint(v)),
                    SUBTYPE_REAL => hash::hash_f64(yy::yyjson_get_real(v)),
                    _ => return Err(format!("yyjson number with an unknown subtype (tag {t})")),
                }),
                TYPE_STR => hash::Node::Leaf(hash::hash_bytes(hash::STRING, str_bytes(v))),
                TYPE_ARR => {
                    let mut it = std::mem::zeroed::<yy::yyjson_arr_iter>();
                    yy::yyjson_arr_iter_init(v, &mut it);
                    hash::Node::Array(ArrIter(it))
                }
                TYPE_OBJ => {
                    let mut it = std::mem::zeroed::<yy::yyjson_obj_iter>();
                    yy::yyjson_obj_iter_init(v, &mut it);
                    hash::Node::Map(ObjIter(it))
                }
                _ => return Err(format!("yyjson value outside the data model (tag {t})")),
            })
        }
    })
}

/// A read document, freed on drop (yyjson frees its value pool and string copy without recursion).
struct Doc(*mut yy::yyjson_doc);

impl Drop for Doc {
    fn drop(&mut self) {
        // SAFETY: the document came from yyjson_read_opts and is freed once.
        unsafe { yy::yyjson_doc_free(self.0) }
    }
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    // SAFETY: `data` is valid for its length; without YYJSON_READ_INSITU yyjson only reads it (it
    // copies the input into the document for its strings).
    let mut err = unsafe { std::mem::zeroed::<yy::yyjson_read_err>() };
    let d = unsafe {
        yy::yyjson_read_opts(data.as_mut_ptr().cast(), data.len(), yy::YYJSON_READ_NOFLAG, std::ptr::null(), &mut err)
    };
    if d.is_null() {
        return Err(c_msg("yyjson_read_opts", err.msg, Some(err.pos)));
    }
    let doc = Doc(d);
    // SAFETY: the root of the live document `doc`.
    unsafe { hash_doc(yy::yyjson_doc_get_root(doc.0)) }
}

/// A mutable document, what the write row writes from: built from the harness's object and freed
/// (yyjson_mut_doc_free, on drop) by every call of the row's timed loop.
struct MutDoc(*mut yy::yyjson_mut_doc);

/// Documents built and not yet freed (tests: each call of the write row's encoder frees the
/// document it built; yyjson allocates with C's malloc, which the harness's counter never sees).
#[cfg(test)]
static LIVE_DOCS: std::sync::atomic::AtomicIsize = std::sync::atomic::AtomicIsize::new(0);
#[cfg(test)]
static BUILT_DOCS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Drop for MutDoc {
    fn drop(&mut self) {
        #[cfg(test)]
        LIVE_DOCS.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: the document came from yyjson_mut_doc_new and is freed once.
        unsafe { yy::yyjson_mut_doc_free(self.0) }
    }
}

/// The harness's tree as a yyjson mutable document (built bottom-up without recursion; strings and
/// keys are copied into the document, so it owns everything it points at).
fn to_mut_doc(v: &Val) -> Result<MutDoc, String> {
    // SAFETY: yyjson_mut_doc_new with the default allocator.
    let p = unsafe { yy::yyjson_mut_doc_new(std::ptr::null()) };
    if p.is_null() {
        return Err("yyjson_mut_doc_new: out of memory".into());
    }
    #[cfg(test)]
    {
        LIVE_DOCS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        BUILT_DOCS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    let doc = MutDoc(p);
    let d = doc.0;
    let oom = |p: *mut yy::yyjson_mut_val| if p.is_null() { Err("yyjson: out of memory".to_string()) } else { Ok(p) };
    // SAFETY (every call below): `d` is a live document; strings are valid for their lengths and
    // copied by yyjson_mut_strncpy.
    let root = fold(
        v,
        |x| {
            oom(unsafe {
                match x {
                    Val::Null => yy::yyjson_mut_null(d),
                    Val::Bool(b) => yy::yyjson_mut_bool(d, *b),
                    Val::UInt(u) => yy::yyjson_mut_uint(d, *u),
                    Val::NegInt(i) => yy::yyjson_mut_sint(d, *i),
                    Val::Float(f) => yy::yyjson_mut_real(d, *f),
                    Val::Str(s) => yy::yyjson_mut_strncpy(d, s.as_ptr().cast(), s.len()),
                    Val::Bin(_) => return Err("JSON has no binary type".to_string()),
                    Val::Array(_) | Val::Map(_) => unreachable!("fold passes scalars only"),
                }
            })
        },
        |a| {
            let arr = oom(unsafe { yy::yyjson_mut_arr(d) })?;
            for x in a {
                if !unsafe { yy::yyjson_mut_arr_append(arr, x) } {
                    return Err("yyjson_mut_arr_append failed".to_string());
                }
            }
            Ok(arr)
        },
        |m| {
            let obj = oom(unsafe { yy::yyjson_mut_obj(d) })?;
            for (k, x) in m {
                let key = oom(unsafe { yy::yyjson_mut_strncpy(d, k.as_ptr().cast(), k.len()) })?;
                if !unsafe { yy::yyjson_mut_obj_add(obj, key, x) } {
                    return Err("yyjson_mut_obj_add failed".to_string());
                }
            }
            Ok(obj)
        },
    )?;
    // SAFETY: `root` belongs to `d`.
    unsafe { yy::yyjson_mut_doc_set_root(d, root) };
    Ok(doc)
}

fn write(fmt: &str, v: &Val) -> Result<Encoder, String> {
    let flags = if fmt == "json-pretty" { yy::YYJSON_WRITE_PRETTY } else { yy::YYJSON_WRITE_NOFLAG };
    build_then_encode(v, to_mut_doc, move |doc| {
        let mut len = 0usize;
        // SAFETY: `doc` is live for the call; the output is malloc'd by yyjson's default
        // allocator, copied, then freed with free().
        unsafe {
            let mut err = std::mem::zeroed::<yy::yyjson_write_err>();
            let p = yy::yyjson_mut_write_opts(doc.0, flags, std::ptr::null(), &mut len, &mut err);
            if p.is_null() {
                return Err(c_msg("yyjson_mut_write_opts", err.msg, None));
            }
            let out = std::slice::from_raw_parts(p.cast::<u8>(), len).to_vec();
            libc::free(p.cast());
            Ok(out)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{hash_val, nested, nested_hash};

    /// yyjson's reader, writer and document free are iterative, and so are the harness's conversion
    /// into a yyjson_mut_doc and its walk: documents nested 100,000 deep round-trip.
    #[test]
    fn writes_and_reads_documents_nested_100000_deep() {
        for maps in [false, true] {
            let out = write("json", &nested(100_000, maps)).unwrap()().unwrap();
            assert_eq!(tree("json", &mut out.clone()).unwrap(), nested_hash(100_000, maps));
        }
    }

    /// Every call of the write row's encoder builds a document from the harness's object and frees
    /// it (spec/fairness.md rule 10); the one built outside the loop, to check that the object fits
    /// JSON, is leaked (adapters::build_then_encode).
    #[test]
    fn every_write_call_builds_and_frees_its_document() {
        use std::sync::atomic::Ordering::Relaxed;
        let v = Val::Map(vec![("a".into(), Val::Array(vec![Val::UInt(1), Val::Str("x".into())]))]);
        let enc = write("json", &v).unwrap();
        let (built, live) = (BUILT_DOCS.load(Relaxed), LIVE_DOCS.load(Relaxed));
        for _ in 0..3 {
            assert_eq!(enc().unwrap(), br#"{"a":[1,"x"]}"#);
        }
        // other tests of this binary may build documents meanwhile, but only ever free their own
        assert!(BUILT_DOCS.load(Relaxed) >= built + 3);
        assert!(LIVE_DOCS.load(Relaxed) <= live);
    }

    #[test]
    fn keeps_nul_in_strings_and_64_bit_integers_and_rejects_what_json_forbids() {
        let v = Val::Map(vec![
            ("s".into(), Val::Str("a\0b".into())),
            ("u".into(), Val::UInt(u64::MAX)),
            ("i".into(), Val::NegInt(i64::MIN)),
            ("f".into(), Val::Float(5e-324)),
            ("z".into(), Val::Float(-0.0)),
        ]);
        let mut json = br#"{"s":"a\u0000b","u":18446744073709551615,"i":-9223372036854775808,"f":5e-324,"z":-0.0}"#.to_vec();
        assert_eq!(tree("json", &mut json).unwrap(), hash_val(&v));
        for fmt in JSON {
            let out = write(fmt, &v).unwrap()().unwrap();
            assert_eq!(tree("json", &mut out.clone()).unwrap(), hash_val(&v), "{fmt}");
        }
        for bad in [&b"{\"a\":1,}"[..], b"{\"a\":NaN}", b"{\"a\":1} x", b"{\"a\":\"\xff\"}"] {
            let e = tree("json", &mut bad.to_vec()).unwrap_err();
            assert!(e.starts_with("yyjson_read_opts: "), "{e}");
        }
    }
}
