"""Two documents shaped the way users' files are, for checking `serbench run --data` (issue 70):

- api-response.json (about 600 KB): a paged API response, as a REST API returns a list of issues:
  nested objects, Unicode text (accents, CJK, emoji) with escapes, 64-bit ids above 2^53, timestamps,
  booleans, nulls and a few doubles;
- geo.json (about 1 MB): a GeoJSON FeatureCollection of polygons, nearly all of it doubles.

Deterministic (a fixed seed), so two machines write the same bytes.

    python3 research/user_documents.py OUT_DIR
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

WORDS = ["parser", "überprüfung", "décodage", "編碼", "données", "schema", "fast 🚀", "naïve", "Ωmega", "tab\there"]


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)) + rng.choice(["", "\n", ' "quoted"', " back\\slash"])


def api_response(rng: random.Random, items: int = 600) -> dict:
    def user() -> dict:
        uid = rng.randrange(2**53, 2**63)  # beyond a double's exact integers
        return {"login": f"user{uid % 100000}", "id": uid, "site_admin": rng.random() < 0.05, "avatar": None}

    issues = []
    for i in range(items):
        issues.append(
            {
                "id": rng.randrange(2**60, 2**63),
                "number": i + 1,
                "title": _text(rng, rng.randint(3, 9)),
                "state": rng.choice(["open", "closed"]),
                "locked": False,
                "user": user(),
                "assignees": [user() for _ in range(rng.randint(0, 2))],
                "labels": [{"name": rng.choice(WORDS), "color": f"{rng.randrange(16**6):06x}"} for _ in range(3)],
                "comments": rng.randint(0, 400),
                "created_at": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:00:00Z",
                "closed_at": None,
                "body": _text(rng, rng.randint(20, 80)),
                "reactions": {"+1": rng.randint(0, 50), "heart": rng.randint(0, 9), "score": rng.random() * 10},
            }
        )
    return {"total_count": items, "incomplete_results": False, "items": issues}


def geo(rng: random.Random, features: int = 400) -> dict:
    out = []
    for i in range(features):
        lon, lat = rng.uniform(-180, 180), rng.uniform(-85, 85)
        ring = [[lon + rng.uniform(-0.5, 0.5), lat + rng.uniform(-0.5, 0.5)] for _ in range(60)]
        ring.append(ring[0])
        out.append(
            {
                "type": "Feature",
                "id": i,
                "properties": {
                    "name": f"area {i}",
                    "population": rng.randint(0, 10**7),
                    "area_km2": rng.random() * 1e4,
                },
                "geometry": {"type": "Polygon", "coordinates": [ring]},
            }
        )
    return {"type": "FeatureCollection", "features": out}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    dest = Path(argv[0])
    dest.mkdir(parents=True, exist_ok=True)
    for name, doc in (("api-response.json", api_response(random.Random(1))), ("geo.json", geo(random.Random(2)))):
        path = dest / name
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"{path}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
