//! serbench Rust harness library: the object hash, the harness's reference tree and decoders,
//! the timed loop and its canary, the counting allocator and the benchmark adapters. `main.rs` is the protocol
//! command line (spec/protocol.md).

pub mod adapters;
pub mod alloc;
pub mod canary;
pub mod codesize;
pub mod hash;
pub mod measure;
pub mod model;
pub mod refdec;
pub mod ser;
pub mod typed;

/// FlatBuffers code generated from spec/schemas/typed.fbs by flatc 2.0.8 (regen-schemas.sh).
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, unused, deprecated, non_camel_case_types, non_snake_case, unsafe_op_in_unsafe_fn, mismatched_lifetime_syntaxes)]
#[path = "generated/typed_generated.rs"]
pub mod typed_fbs;

/// Cap'n Proto code generated from spec/schemas/typed.capnp by capnp 0.9.2 + capnpc 0.27.0
/// (regen-schemas.sh); capnpc's code refers to itself as `crate::typed_capnp`.
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, unused, deprecated, non_camel_case_types, non_snake_case, unsafe_op_in_unsafe_fn, mismatched_lifetime_syntaxes)]
#[path = "generated/typed_capnp.rs"]
pub mod typed_capnp;
