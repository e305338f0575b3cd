// The typed baselines (one source, two executables; spec/typed.md, spec/fairness.md rule 5): what a
// typed row does besides calling its library, subtracted from the row's time.
//   hash-data-typed (SB_HASH_DATA_TYPED), for typed-encode: hash the records' encoding in the
//     format (made once, outside the loop), as a row hashes its output.
//   hash-typed, for typed-decode and typed-access: copy the records' encoding into a fresh 16-byte
//     aligned buffer and walk the harness's prebuilt native records with the typed hash, as a row
//     copies its input and hashes what it decoded.
// The encoding is the shortest that any typed row of this build makes in the format (each row is asked
// in its own process: typed_main.cpp), so a baseline never copies or hashes more bytes than a row.
// The work itself is in typed_main.cpp (BaselineCell); this file only describes the two.
#include "typed_bench.h"

namespace sb {

namespace typed {
std::vector<std::string> all_typed_formats();  // typed_main.cpp: every typed row's formats (typed.tsv)

// A baseline encodes nothing itself (BaselineCell asks the rows).
std::unique_ptr<Codec> make_codec(const std::string&, const std::string&, const Records&, std::string& err) {
  return refuse(err, "a baseline has no codec");
}
}  // namespace typed

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "serbench-native";
    i.version = "1";
    i.baseline = true;
    i.formats = typed::all_typed_formats();
#ifdef SB_HASH_DATA_TYPED
    i.id = "hash-data-typed";
    i.tests = {"typed-encode"};
    i.notes =
        "typed-encode baseline: hashes the records' encoding in the format (the shortest any typed row of this "
        "build makes, made once), never more bytes than a row hashes";
#else
    i.id = "hash-typed";
    i.tests = {"typed-decode", "typed-access"};
    i.notes =
        "typed-decode and typed-access baseline: copies the records' encoding in the format (the shortest any "
        "typed row makes) into a fresh 16-byte aligned buffer, as the rows do, and hashes the prebuilt native "
        "records with the typed hash the rows use";
#endif
    return i;
  }();
  return b;
}

}  // namespace sb
