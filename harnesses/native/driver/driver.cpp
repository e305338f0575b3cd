// serbench-native: the harness program the orchestrator starts (spec/protocol.md).
//
// It owns no benchmark code: `run` and `verify` exec the benchmark's own executable (bench-<id>,
// beside this one) so the measured process holds exactly one library; `list` and `selftest` ask
// every executable in turn. benches.tsv (written by CMake) names them: id, kind, shared objects.
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

using J = nlohmann::ordered_json;

namespace {

struct Entry {
  std::string id, kind, link, build;
  std::vector<std::string> shared;  // shared objects whose code counts towards code size
};

std::string g_dir;  // directory of this executable and of the bench-* executables

std::string exe_dir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  std::string p(buf);
  return p.substr(0, p.rfind('/'));
}

std::vector<Entry> manifest() {
  std::vector<Entry> out;
  std::ifstream f(g_dir + "/benches.tsv");
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    std::istringstream ss(line);
    Entry e;
    std::string shared;
    std::getline(ss, e.id, '\t');
    std::getline(ss, e.kind, '\t');
    std::getline(ss, shared, '\t');
    std::getline(ss, e.link, '\t');
    std::getline(ss, e.build, '\t');
    std::istringstream sh(shared);
    for (std::string s; std::getline(sh, s, ',');)
      if (!s.empty()) e.shared.push_back(s);
    out.push_back(e);
  }
  return out;
}

std::string bench_path(const std::string& id) { return g_dir + "/bench-" + id; }

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Section bytes of an ELF file. `code_only`: executable sections (.text, .plt, ...), the "text
// size" spec/fairness.md counts for a shared object. Otherwise every allocated section with
// contents (code, read-only data, data, dynamic-linking tables; not .bss): the part of a stripped
// executable that differs between a benchmark and its baseline, without the page padding that
// makes file sizes move in 4 KiB steps.
long long section_bytes(const std::string& path, bool code_only) {
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return -1;
  struct stat st;
  fstat(fd, &st);
  void* m = mmap(nullptr, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (m == MAP_FAILED) return -1;
  long long total = 0;
  const auto* eh = static_cast<const Elf64_Ehdr*>(m);
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64) {
    const auto* sh = reinterpret_cast<const Elf64_Shdr*>(static_cast<const char*>(m) + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++)
      if ((sh[i].sh_flags & SHF_ALLOC) && sh[i].sh_type != SHT_NOBITS &&
          (!code_only || (sh[i].sh_flags & SHF_EXECINSTR)))
        total += static_cast<long long>(sh[i].sh_size);
  } else {
    total = -1;
  }
  munmap(m, st.st_size);
  return total;
}

// Runs argv-as-shell-command, returns its stdout; rc gets the exit status.
std::string capture(const std::string& cmd, int& rc) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    rc = -1;
    return out;
  }
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return out;
}

int cmd_list() {
  J benches = J::array();
  for (const auto& e : manifest()) {
    int rc;
    std::string out = capture(quote(bench_path(e.id)) + " describe", rc);
    if (rc != 0) {
      fprintf(stderr, "bench-%s describe failed (exit %d)\n", e.id.c_str(), rc);
      return 1;
    }
    J d = J::parse(out);
    J row;
    for (const char* k : {"id", "library", "version", "formats", "tests"}) row[k] = d[k];
    // One baseline per hashing path (spec/fairness.md rule 5): tree rows walk their library's tree
    // with TreeHasher (hash-object does the same over the harness's object), incremental rows hash
    // parse events (hash-events replays the object as events), write rows hash their output bytes.
    // Typed rows (spec/typed.md): typed-encode hashes its output (hash-data-typed), typed-decode and
    // typed-access hash native records or views (hash-typed).
    J bf = J::object();
    bool decodes = false, typed = false;
    if (e.kind != "baseline")
      for (const auto& t : d["tests"]) {
        const std::string s = t.get<std::string>();
        const bool is_typed = s.rfind("typed-", 0) == 0;
        bf[s] = is_typed       ? (s == "typed-encode" ? "hash-data-typed" : "hash-typed")
                : s == "write" ? "hash-data"
                : s == "tree"  ? "hash-object"
                               : "hash-events";
        decodes = decodes || s != "write";
        typed = typed || is_typed;
      }
    row["baseline_for"] = bf;
    row["notes"] = d["notes"];
    row["baseline"] = e.kind == "baseline";
    row["measures"] = d["measures"];
    row["steps"] = d["steps"];  // test -> the steps its loop performs (spec/fairness.md rule 12)
    // Who compiled the library's code, with which flags (docs/libraries.md, "How each library was
    // compiled"): "debian -O2" (the package's archive or shared object) or "harness <flags>".
    row["build"] = e.build;
    if (e.kind != "baseline") {
      // Stripped executable minus the stripped baseline it is compared with (same common code:
      // reference decoder, loop, hash), plus the shared objects of a library without a usable archive.
      // A typed row's executable carries the typed half of the harness too (loader, typed hash), as
      // hash-typed's does.
      const std::string base = typed ? "hash-typed" : decodes ? "hash-object" : "hash-data";
      long long size = section_bytes(bench_path(e.id), false) - section_bytes(bench_path(base), false);
      std::string method = "allocated ELF sections of the stripped executable minus those of stripped " + base;
      for (const auto& s : e.shared) {
        size += section_bytes(s, true);
        method += ", plus the text (executable sections) of " + s.substr(s.rfind('/') + 1);
      }
      method += " (" + e.link + ")";
      row["code_size_bytes"] = size;
      row["code_size_method"] = method;
    }
    benches.push_back(row);
  }
  J out;
  out["protocol"] = 1;
  out["harness"] = "native";
  out["runtime"] = SB_RUNTIME;
  out["benchmarks"] = benches;
  puts(out.dump().c_str());
  return 0;
}

int cmd_selftest(int argc, char** argv) {
  std::string args;
  for (int i = 2; i < argc; i++) args += " " + quote(argv[i]);
  int pass = 0, fail = 0, skip = 0, crashed = 0;
  // every benchmark, and the instruction-count executables of the baselines that have one
  std::vector<std::string> paths;
  for (const auto& e : manifest()) {
    paths.push_back(bench_path(e.id));
    if (access((paths.back() + "-counted").c_str(), X_OK) == 0) paths.push_back(paths.back() + "-counted");
  }
  for (const auto& path : paths) {
    int rc;
    std::string out = capture(quote(path) + " selftest" + args, rc);
    fputs(out.c_str(), stdout);
    fflush(stdout);
    std::istringstream ss(out);
    for (std::string line; std::getline(ss, line);) {
      const std::string st = J::parse(line).value("status", "");
      (st == "pass" ? pass : st == "skip" ? skip : fail)++;
    }
    if (rc != 0 && rc != 1) {  // 1 = some check failed (already counted); anything else is a crash
      crashed++;
      fprintf(stderr, "%s selftest exited with %d\n", path.c_str(), rc);
    }
  }
  fprintf(stderr, "%d passed, %d failed, %d skipped\n", pass, fail, skip);
  return fail || crashed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  g_dir = exe_dir();
  if (argc < 2) {
    fprintf(stderr, "usage: serbench-native list|run|verify|selftest [options]\n");
    return 2;
  }
  const std::string cmd = argv[1];
  try {
    if (cmd == "list") return cmd_list();
    if (cmd == "selftest") return cmd_selftest(argc, argv);
  } catch (const std::exception& e) {
    fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  if (cmd == "run" || cmd == "verify") {
    std::string id;
    for (int i = 2; i + 1 < argc; i++)
      if (std::string(argv[i]) == "--bench") id = argv[i + 1];
    bool known = false;
    for (const auto& e : manifest()) known = known || e.id == id;
    if (!known) {
      fprintf(stderr, "unknown benchmark %s\n", id.empty() ? "(no --bench)" : id.c_str());
      return 2;
    }
    // Replace this process: the orchestrator's timeout and signals reach the benchmark directly.
    // Under --iterations a baseline with a walk of fewer instructions runs that (CMakeLists.txt,
    // bench-<id>-counted; protocol.md step 9).
    std::string path = bench_path(id);
    bool counting = false;
    for (int i = 2; i < argc; i++) counting = counting || std::string(argv[i]) == "--iterations";
    if (counting && access((path + "-counted").c_str(), X_OK) == 0) path += "-counted";
    argv[0] = const_cast<char*>(path.c_str());
    execv(path.c_str(), argv);
    perror(path.c_str());
    return 1;
  }
  fprintf(stderr, "unknown command %s\n", cmd.c_str());
  return 2;
}
