//! serbench Rust harness library: the object hash, the harness's reference tree and decoders,
//! the timed loop, the counting allocator and the benchmark adapters. `main.rs` is the protocol
//! command line (spec/protocol.md).

pub mod adapters;
pub mod alloc;
pub mod hash;
pub mod measure;
pub mod model;
pub mod typed;
