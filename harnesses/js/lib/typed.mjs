// Typed datasets (spec/typed.md): filled in by the typed rows.
export async function prepare(row, test, format, data, lib, Failure, EXIT) {
  throw new Failure(EXIT.UNSUPPORTED, `${row.id} has no typed rows yet`);
}
