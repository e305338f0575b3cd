"""serbench's Python harness: drives Python serialization libraries through spec/protocol.md."""
