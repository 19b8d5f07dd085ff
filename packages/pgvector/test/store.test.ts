import { ByteStream, Document } from "@junction/documents";
import { describe, expect, it } from "vitest";
import { PgvectorDocumentStore, PgvectorStoreError } from "../src/index.js";
import { makeStore, sharedPGlite } from "./support/shared-pglite.js";

const doc = (content: string, extra: ConstructorParameters<typeof Document>[0] = {}) =>
  new Document({ content, ...extra });

describe("PgvectorDocumentStore writes and reads", () => {
  it("round-trips content, meta, blob and embedding, and keeps the ids", async () => {
    const store = await makeStore();
    const blob = new ByteStream(new Uint8Array([0, 1, 2, 255]), {
      mimeType: "application/pdf",
      meta: { path: "a.pdf" },
    });
    const written = [
      doc("hello", {
        meta: { lang: "en", nested: { a: [1, 2, { b: null }] }, float: 0.1 },
        embedding: [0.1, -0.2, 0.3],
      }),
      doc("with blob", { blob }),
      new Document({ meta: { only: "meta" } }),
    ];
    expect(await store.writeDocuments(written)).toBe(3);
    const read = await store.filterDocuments();
    expect(read.map((d) => d.id)).toEqual(written.map((d) => d.id).sort());
    const byId = new Map(read.map((d) => [d.id, d]));
    const first = byId.get(written[0]!.id)!;
    expect(first.meta).toEqual(written[0]!.meta);
    expect(first.embedding?.map((v) => Math.fround(v))).toEqual([0.1, -0.2, 0.3].map(Math.fround));
    const second = byId.get(written[1]!.id)!;
    expect(Array.from(second.blob!.data)).toEqual([0, 1, 2, 255]);
    expect(second.blob!.mimeType).toBe("application/pdf");
    expect(second.blob!.meta).toEqual({ path: "a.pdf" });
    expect(byId.get(written[2]!.id)!.content).toBeUndefined();
  });

  it("treats policy none as fail, naming every duplicate id and writing nothing", async () => {
    const store = await makeStore();
    const a = doc("a");
    await store.writeDocuments([a]);
    const error = await store.writeDocuments([doc("b"), a]).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe("DuplicateDocumentError");
    expect(String((error as Error).message)).toContain(a.id);
    expect(await store.countDocuments()).toBe(1);
    await expect(store.writeDocuments([doc("c"), doc("c")], { policy: "fail" })).rejects.toMatchObject({
      name: "DuplicateDocumentError",
    });
    expect(await store.countDocuments()).toBe(1);
  });

  it("skips or overwrites duplicates and counts only what it wrote", async () => {
    const store = await makeStore();
    const original = doc("same", { id: "x", meta: { v: 1 } });
    await store.writeDocuments([original]);
    expect(
      await store.writeDocuments([doc("same", { id: "x", meta: { v: 2 } }), doc("new")], { policy: "skip" }),
    ).toBe(1);
    expect((await store.filterDocuments({ field: "id", operator: "==", value: "x" }))[0]?.meta).toEqual({
      v: 1,
    });
    expect(
      await store.writeDocuments(
        [doc("same", { id: "x", meta: { v: 3 } }), doc("same", { id: "x", meta: { v: 4 } })],
        { policy: "overwrite" },
      ),
    ).toBe(1);
    expect((await store.filterDocuments({ field: "id", operator: "==", value: "x" }))[0]?.meta).toEqual({
      v: 4,
    });
  });

  it("rolls a failed batch back as a whole", async () => {
    const store = await makeStore();
    const good = Array.from({ length: 1200 }, (_, i) => doc(`good ${i}`));
    const bad = doc("bad", { embedding: [1, 2] });
    await expect(store.writeDocuments([...good, bad])).rejects.toMatchObject({
      code: "PGVECTOR_INVALID_DOCUMENT",
    });
    expect(await store.countDocuments()).toBe(0);
    // A failure inside the database, in the third INSERT of the batch (a text too large for the
    // keyword index), rolls back the first two as well.
    const huge = doc(Array.from({ length: 130_000 }, (_, i) => `w${i.toString(36)}x${i}`).join(" "));
    const error = await store.writeDocuments([...good, huge]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "PGVECTOR_QUERY_FAILED" });
    expect(String((error as Error).message)).toMatch(/too large for the keyword index.*DocumentSplitter/);
    expect(await store.countDocuments()).toBe(0);
  });

  it("loses nothing when several writers write at once", async () => {
    const store = await makeStore();
    const writers = Array.from({ length: 8 }, (_, w) =>
      store.writeDocuments(
        Array.from({ length: 50 }, (_, i) => doc(`writer ${w} doc ${i}`)),
        { policy: "overwrite" },
      ),
    );
    expect(await Promise.all(writers)).toEqual(Array(8).fill(50));
    expect(await store.countDocuments()).toBe(400);
  });

  it("deletes by id (unknown ids ignored) and deletes all", async () => {
    const store = await makeStore();
    const docs = [doc("1"), doc("2"), doc("3")];
    await store.writeDocuments(docs);
    await store.deleteDocuments([docs[0]!.id, "unknown"]);
    expect((await store.filterDocuments()).map((d) => d.content).sort()).toEqual(["2", "3"]);
    await store.deleteAllDocuments();
    expect(await store.countDocuments()).toBe(0);
  });

  it("refuses an existing table whose embedding column has another dimension", async () => {
    const first = await makeStore({ tableName: "dims", embeddingDimension: 3 });
    await first.warmUp();
    const second = await makeStore({ tableName: "dims", embeddingDimension: 4 });
    await expect(second.countDocuments()).rejects.toThrow(/vector\(3\).*vector\(4\)/);
  });

  it("recreates the table when asked", async () => {
    const first = await makeStore({ tableName: "again" });
    await first.writeDocuments([doc("old")]);
    const second = await makeStore({ tableName: "again", recreateTable: true });
    expect(await second.countDocuments()).toBe(0);
  });

  it("fails calls after close with a clear error, and leaves a given PGlite open", async () => {
    const store = await makeStore();
    await store.warmUp();
    await store.close();
    await expect(store.countDocuments()).rejects.toMatchObject({ code: "PGVECTOR_CLOSED" });
    expect((await (await sharedPGlite()).query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("stops before running when the signal is already aborted", async () => {
    const store = await makeStore();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(store.writeDocuments([doc("x")], { signal: controller.signal })).rejects.toThrow("stop");
    expect(await store.countDocuments()).toBe(0);
  });

  it("reports invalid options all at once, and refuses table names that are not plain identifiers", () => {
    let caught: unknown;
    try {
      new PgvectorDocumentStore({
        embeddingDimension: 0,
        vectorFunction: "dot" as never,
        dataDir: "x",
        pool: {} as never,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PgvectorStoreError);
    expect((caught as PgvectorStoreError).issues.length).toBe(3);
    expect(() => new PgvectorDocumentStore({ tableName: 'x"; DROP TABLE canary; --' })).toThrow(
      /not a plain Postgres identifier/,
    );
    expect(() => new PgvectorDocumentStore({ language: "english'); DROP TABLE canary; --" })).toThrow(
      /text search configuration/,
    );
  });
});
