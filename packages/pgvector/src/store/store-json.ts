import { Secret, SerializationError } from "@junction/core";
import type { DocumentStoreJSON } from "@junction/documents";
import type { StoreConfig } from "./config.js";
import type { PgvectorDocumentStoreOptions, StoreTarget } from "./options.js";

/** The type name of `PgvectorDocumentStore` in saved pipelines. */
export const pgvectorStoreType = "junction.PgvectorDocumentStore";

/**
 * `{ type: "junction.PgvectorDocumentStore", init_parameters }`: the configuration and where the data
 * is — a data directory, or the connection string as an environment-variable Secret. A literal
 * connection string or a pool is refused: the first would write a password into the pipeline file, the
 * second cannot be written at all.
 */
export function storeToJSON(config: StoreConfig, target: StoreTarget): DocumentStoreJSON {
  const where: Record<string, unknown> = {};
  if (target.kind === "pool" || target.kind === "pglite") {
    throw new SerializationError(
      `PgvectorDocumentStore.toJSON: a store built on a ${target.kind === "pool" ? "pg pool" : "PGlite instance"} cannot be saved. Build it with connectionString: Secret.fromEnvVar("PG_CONN_STR") or dataDir instead.`,
    );
  }
  if (target.kind === "server") {
    if (typeof target.connectionString === "string" || target.connectionString.type !== "env_var") {
      throw new SerializationError(
        'PgvectorDocumentStore.toJSON: the connection string is a literal, which would write its password into the saved pipeline. Pass connectionString: Secret.fromEnvVar("PG_CONN_STR") and set that environment variable.',
      );
    }
    where.connectionString = target.connectionString.toJSON();
  } else if (target.dataDir !== undefined) where.dataDir = target.dataDir;
  const { hnswEfSearch, ...rest } = config;
  return {
    type: pgvectorStoreType,
    init_parameters: {
      ...where,
      ...rest,
      hnswIndexCreationKwargs: { ...config.hnswIndexCreationKwargs },
      ...(hnswEfSearch === undefined ? {} : { hnswEfSearch }),
    },
  };
}

/** The options `init_parameters` describe (the connection string read back as a Secret). */
export function optionsFromJSON(init: Record<string, unknown>): PgvectorDocumentStoreOptions {
  const { connectionString, ...rest } = init;
  return {
    ...(rest as PgvectorDocumentStoreOptions),
    ...(connectionString === undefined || connectionString === null
      ? {}
      : { connectionString: Secret.fromJSON(connectionString) }),
  };
}
