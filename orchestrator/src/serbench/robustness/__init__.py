"""The robustness matrix (DESIGN §9, issue 15): every decoder row against malformed and hostile input,
each case in its own process under limits the orchestrator sets (docs/robustness.md).

- `cases`: the deterministic case corpus (`corpus/robustness/<format>/<case>.<ext>` and its manifest);
- `limits`: one harness process under a wall-clock, memory, stack and file-size limit;
- `run`: planning, running and classifying outcomes, and the per-library verdicts.
"""
