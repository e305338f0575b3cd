"""locate.py finds where a library reads a document wrong through its own verify, by cutting the
document down: each test's fake verify decodes the bytes with the reference decoder, changes them the
way a real library would, and hashes the result, as a harness's verify does."""

from __future__ import annotations

import json
import math
import sys
import textwrap
import unicodedata
from pathlib import Path

from serbench import locate, objhash, runner
from serbench.corpus import formats as F
from serbench.harnesses import Harness
from serbench.store import Store


def walk(doc, change, path="$"):
    """A copy of doc with change(value, path) applied to every scalar; maps get change(map, path) too
    (the result replaces the map), so a fake can drop keys."""
    if isinstance(doc, dict):
        doc = {k: walk(v, change, f"{path}.{k}") for k, v in doc.items()}
        return change(doc, path)
    if isinstance(doc, list):
        return change([walk(v, change, f"{path}[]") for v in doc], path)
    return change(doc, path)


class Fake:
    """A verify callable: decode (reference decoder), change, hash; None where `fails` says so."""

    def __init__(self, change, fmt="json", fails=lambda doc: False):
        self.change, self.fmt, self.fails = change, fmt, fails
        self.seen: list[bytes] = []

    def __call__(self, data: bytes) -> str | None:
        self.seen.append(data)
        doc = F.DECODERS[self.fmt](data)
        if self.fails(doc):
            return None
        return objhash.hex64(objhash.hash_value(walk(doc, self.change)))


def same(v, path):
    return v


DOC = {
    "list": [1, 2, 3, 4, 5, {"x": 1.1, "y": "z"}, 7],
    "ab": [10, -20, 3.5, -9223372036854775808, 5],
    "cd": {"big": -9223372036854775808, "s": "ok"},
    "m": {"a": 1, "zz": 2, "b": [True, None]},
    "n": 4,
}


def test_a_library_that_rounds_one_double_by_one_ulp_is_found_at_that_double():
    up = math.nextafter(1.1, math.inf)
    fake = Fake(lambda v, p: up if p == "$.list[].x" and v == 1.1 else v)
    where = locate.locate(DOC, "json", fake)
    assert where.path == "$.list[5].x"
    assert where.message == (
        f"first difference at $.list[5].x: expected float 1.1, got float {up!r} "
        f"(1 ulp above; found with {where.calls} verify calls on cut-down documents)"
    )
    assert where.calls == len(fake.seen) <= locate.MAX_CALLS
    # every cut is a valid document holding the path: the last one verified is {"list": [{"x": 1.1, ...}]}
    assert json.loads(fake.seen[0]) == DOC


def test_big_integers_read_as_doubles_in_one_subtree_only_name_the_first_one_there():
    # explain.py's whole-document changes do not match: $.cd.big is read right
    fake = Fake(lambda v, p: float(v) if p.startswith("$.ab") and type(v) is int and abs(v) > 2**53 else v)
    where = locate.locate(DOC, "json", fake)
    assert where.message == (
        "first difference at $.ab[3]: expected int -9223372036854775808, got float -9.223372036854776e+18 "
        f"(the integer read as a double; found with {where.calls} verify calls on cut-down documents)"
    )


def test_a_dropped_key_is_named_at_its_map():
    fake = Fake(lambda v, p: {k: x for k, x in v.items() if k != "zz"} if isinstance(v, dict) else v)
    where = locate.locate(DOC, "json", fake)
    assert where.path == "$.m"
    assert where.message.startswith('first difference at $.m: the key "zz" is missing (found with ')


def test_a_library_that_fails_on_a_smaller_document_stops_the_search_where_it_is():
    up = math.nextafter(1.1, math.inf)

    def fails(doc) -> bool:  # refuses a map of one entry whose value is a scalar (none in the full document)
        stack = [doc]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                if len(v) == 1 and not isinstance(next(iter(v.values())), (dict, list)):
                    return True
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)
        return False

    doc = {"a": {"x": 1.1, "y": 2}, "b": [3, 4]}
    fake = Fake(lambda v, p: up if v == 1.1 else v, fails=fails)
    where = locate.locate(doc, "json", fake)
    assert where.path == "$.a"
    assert where.calls == 3  # the whole, {"a": ...} alone, then {"a": {"x": 1.1}} which fails
    assert where.message == (
        "the first difference is within $.a (map of 2); the search stopped there after 3 verify calls: "
        "the library fails on a smaller document (one the whole document did not fail on)"
    )
    # failing already on the first cut of the root: nothing is claimed
    where = locate.locate({"x": 1.1, "y": 2}, "json", Fake(lambda v, p: up if v == 1.1 else v, fails=fails))
    assert where.message is None and where.calls == 2 and "fails on a smaller document" in where.stopped


def test_a_changed_key_is_named_with_what_it_became():
    key = "caf\u00e9"
    fake = Fake(lambda v, p: {unicodedata.normalize("NFD", k): x for k, x in v.items()} if isinstance(v, dict) else v)
    where = locate.locate({"a": 1, key: 2, "b": 3}, "json", fake)
    assert where.message.startswith(
        'first difference at $: expected the key "caf\\u00e9", got the key "cafe\\u0301" (normalised to NFD; '
    )
    # deeper down, the document above the key is rebuilt around the changed key
    where = locate.locate({"x": 1, "m": {"a": [1, {key: 2.5, "b": 3}], "c": 4}}, "json", fake)
    assert where.path == "$.m.a[1]"
    assert where.message.startswith('first difference at $.m.a[1]: expected the key "caf\\u00e9", got the key ')


def test_astral_characters_as_cesu8_are_named():
    # a decoder working in UTF-16 that hands back surrogates encoded one by one
    text = "x\U0001f600y"

    def verify(data: bytes) -> str:
        doc = F.decode_json(data)
        # the hash of what such a library holds: its string's bytes are CESU-8
        cesu = locate._cesu8(doc["k"]["s"], False)
        inner = objhash.map_end(objhash.map_entry(objhash.hash_str("s"), objhash.hash_bytes(objhash.S_STRING, cesu)), 1)
        h = objhash.map_end(objhash.map_entry(objhash.hash_str("k"), inner), 1)
        return objhash.hex64(h)

    where = locate.locate({"k": {"s": text}}, "json", verify)
    assert where.path == "$.k.s"
    assert "(characters above U+FFFF as CESU-8 surrogates; " in where.message
    assert where.message.startswith('first difference at $.k.s: expected string (3 chars) "x\\ud83d\\ude00y", got ')


def test_an_array_that_loses_its_last_element_is_found_as_its_container():
    # every part reads right alone; the array of 4 as a whole loses its last element
    fake = Fake(lambda v, p: v[:-1] if isinstance(v, list) and len(v) > 2 else v)
    where = locate.locate({"a": [1, 2, 3, 4]}, "json", fake)
    assert where.path == "$.a"
    assert where.message.startswith("first difference at $.a: the element [3] is missing (found with ")


def test_no_matching_candidate_says_so():
    fake = Fake(lambda v, p: 7.7 if v == 1.1 else v)
    where = locate.locate(DOC, "json", fake)
    assert where.message.startswith(
        "first difference at $.list[5].x: expected float 1.1, got a different value (none of the candidates tried)"
    )


def test_the_same_inputs_give_the_same_cuts_and_message():
    up = math.nextafter(1.1, math.inf)
    a, b = Fake(lambda v, p: up if v == 1.1 else v), Fake(lambda v, p: up if v == 1.1 else v)
    assert locate.locate(DOC, "json", a) == locate.locate(DOC, "json", b)
    assert a.seen == b.seen


def test_the_work_is_bounded_by_calls_and_time():
    up = math.nextafter(1.1, math.inf)
    fake = Fake(lambda v, p: up if v == 1.1 else v)
    where = locate.locate(DOC, "json", fake, max_calls=3)
    assert where.calls == 3 == len(fake.seen)
    assert where.message is None or "its limit of 3 verify calls was reached" in where.message
    ticks = iter(range(100))
    where = locate.locate(DOC, "json", fake, budget_s=2, clock=lambda: next(ticks))
    assert where.calls == 1 and where.message is None and "time budget of 2 s" in where.stopped
    # a wide array: the halving needs about log2(n) calls per level, far below the limit
    wide = {"a": [float(i) for i in range(1000)]}
    fake = Fake(lambda v, p: up if v == 777.0 else v)
    where = locate.locate(wide, "json", fake)
    assert where.path == "$.a[777]" and where.calls <= 25


def test_no_claim_without_an_encoder_or_when_the_document_fails_or_reads_right():
    where = locate.locate({"a": 1}, "binc", Fake(same))
    assert where.message is None and where.calls == 0 and "no reference encoder for binc" in where.stopped
    where = locate.locate({"a": 1}, "json", lambda data: None)
    assert where.message is None and where.calls == 1
    where = locate.locate({"a": 1}, "json", Fake(same))
    assert where.message.startswith("the library reads the same document right when serbench's reference encoder")


def test_binary_formats_cut_their_documents_too():
    # BSON: the root stays a document; arrays become documents with keys "0", "1", ... and a cut
    # array is renumbered from 0 by the encoder, which the reference decoder reads back as a list
    doc = {"a": [1, 2, {"b": 2.5, "c": "d"}], "e": True}
    down = math.nextafter(2.5, -math.inf)
    for fmt in ("bson", "msgpack", "cbor", "ubjson"):
        fake = Fake(lambda v, p: down if v == 2.5 else v, fmt=fmt)
        where = locate.locate(doc, fmt, fake)
        assert where.path == "$.a[2].b", fmt
        assert "(1 ulp below; " in where.message, fmt


# --- through runner's explain_read, with a fake harness ---------------------------------------------

FAKE_HARNESS = textwrap.dedent(
    """
    # a harness whose library reads 1.1 one ulp high, in `run` (check) and `verify` alike
    import json, math, sys
    from serbench import objhash
    a = sys.argv[1:]
    opt = {a[i][2:]: a[i + 1] for i in range(1, len(a) - 1) if a[i].startswith("--")}
    up = math.nextafter(1.1, math.inf)
    def fix(v):
        if isinstance(v, dict):
            return {k: fix(x) for k, x in v.items()}
        if isinstance(v, list):
            return [fix(x) for x in v]
        return up if v == 1.1 else v
    got = objhash.hex64(objhash.hash_value(fix(json.loads(open(opt["file"]).read()))))
    if a[0] == "verify":
        print(json.dumps({"hash": got}))
        sys.exit(0)
    with open(opt["results"], "a") as f:
        f.write(json.dumps(dict(kind="check", ok=False, hash=got, expected=opt["expect-hash"],
                                reason=f"hash {got} differs")) + "\\n")
    sys.exit(4)
    """
)


class FakeHarness(Harness):
    name = "fake"
    folder = "."

    def __init__(self, root: Path, script: Path):
        super().__init__(root)
        self.script = script

    def build(self) -> None:
        pass

    def command(self) -> list[str]:
        return [sys.executable, str(self.script)]


def test_an_incorrect_reader_that_no_systematic_change_explains_gets_its_first_difference(tmp_path):
    script = tmp_path / "fake.py"
    script.write_text(FAKE_HARNESS)
    doc = {"a": [1, 2, {"x": 1.1, "y": 2.2}], "b": 1.25}
    (tmp_path / "d.json").write_bytes(F.encode_json(doc))
    h = FakeHarness(tmp_path, script)
    dataset = {"dataset": "d", "hash": objhash.hex64(objhash.hash_value(doc)), "files": {"json": {"file": "d.json"}}}
    bench = {"id": "lib", "library": "lib", "version": "0", "formats": ["json"], "tests": ["tree"], "baseline_for": {}}
    cell = runner.Cell(h, bench, "tree", dataset, "json", tmp_path, None)
    store = Store(tmp_path / "s.db")
    store.create_run("r", "test", {}, {}, {"datasets": [dataset]})
    mode = runner.Mode("test", rounds=1, budget_ms=1, min_samples=1, timeout_s=10, n_boot=50)
    runner.run_cells(store, "r", [cell], mode, seed=1, progress=lambda *a: None)
    c = store.cells("r")[0]
    assert c["status"] == "incorrect"
    up = math.nextafter(1.1, math.inf)
    assert (
        f"; first difference at $.a[2].x: expected float 1.1, got float {up!r} (1 ulp above; found with "
        in (c["reason"])
    )
    assert not list(tmp_path.glob("**/cut-*"))  # the cut-down files are gone


def test_a_case_file_is_located_through_the_harness_and_a_re_encoded_one_that_reads_right_is_said(tmp_path):
    from serbench.robustness.limits import Limits

    script = tmp_path / "fake.py"
    script.write_text(FAKE_HARNESS)
    h = FakeHarness(tmp_path, script)
    bench = {"id": "lib"}
    case = tmp_path / "case.json"
    case.write_bytes(b'{"a": [1.1, 2], "b": "c"}')
    where = locate.locate_file(case, "json", h, bench, "tree", limits=Limits(timeout_s=10))
    assert where.path == "$.a[0]" and "(1 ulp above; " in where.message
    # the library reads 2.0 right; a file that encodes the same document another way reads right once
    # serbench's encoder writes it, which is said as such
    case.write_bytes(b'{"a": 2.0}')
    where = locate.locate_file(case, "json", h, bench, "tree")
    assert where.calls == 1 and where.message.startswith("the library reads the same document right")
    case.write_bytes(b'{"a": ')
    where = locate.locate_file(case, "json", h, bench, "tree")
    assert where.message is None and where.calls == 0 and "does not decode" in where.stopped


def test_a_subtree_read_as_null_is_named_at_the_subtree():
    fake = Fake(lambda v, p: None if isinstance(v, dict) and "q" in v else v)
    where = locate.locate({"a": [1, {"q": 1, "r": [2, 3]}], "b": 2}, "json", fake)
    assert where.message.startswith("first difference at $.a[1]: expected map of 2, got null (found with ")
