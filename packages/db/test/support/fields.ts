// The round-trip tests' check: what was written names every scalar field of the model (from the
// generated client's own metadata), and reads back exactly as written.
import { Prisma } from "@parley/db";
import { expect } from "vitest";

/** The model's scalar field names, sorted. */
export function fieldsOf(model: Prisma.ModelName): string[] {
  const scalarFields = (Prisma as unknown as Record<string, Record<string, string>>)[`${model}ScalarFieldEnum`];
  return Object.keys(scalarFields ?? {}).sort();
}

export function expectAllFields(model: Prisma.ModelName, written: object, read: object): void {
  expect(Object.keys(written).sort()).toEqual(fieldsOf(model));
  expect(read).toEqual(written);
}
