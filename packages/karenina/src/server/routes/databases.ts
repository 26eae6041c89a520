import { realpath, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { openStorage } from "../../storage/index.js";
import { ApiError, errorResponses, jsonContent, type RouteGroup } from "../core/index.js";
import {
  ConnectionNameSchema,
  connectionsOf,
  containedDatabaseFile,
  databaseDirectory,
  libraryCall,
  listDatabaseFiles,
  withDbExtension,
} from "../databases/index.js";

/** The real path of the server's own SQLite database, or null for PostgreSQL. */
async function ownDatabaseFile(workDir: string, url: string): Promise<string | null> {
  if (/^postgres/i.test(url)) return null;
  const path = resolve(workDir, url.replace(/^sqlite(\+[\w-]+)?:\/\/\//i, ""));
  return realpath(path).catch(() => path);
}

export const ConnectionSchema = z
  .object({
    name: z.string(),
    database: z.string().describe("The database as shown to clients (a PostgreSQL password masked)"),
    dialect: z.enum(["sqlite", "postgres"]),
    file: z.string().nullable().describe("The SQLite file, or null for PostgreSQL"),
  })
  .meta({ id: "DatabaseConnection" });

const ConnectRequestSchema = z
  .object({
    name: ConnectionNameSchema,
    sqlite_file: z
      .string()
      .optional()
      .describe("A SQLite file of the database directory (`.db` appended when missing)"),
    postgres_url: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "expected a postgres:// or postgresql:// URL")
      .optional(),
    create_if_missing: z.boolean().default(true),
  })
  .meta({ id: "DatabaseConnectRequest" });

export const ConnectedSchema = z.object({ connection: ConnectionSchema, benchmark_count: z.number().int() });

export const DatabaseListSchema = z
  .object({
    db_directory: z.string(),
    databases: z.array(
      z.object({
        name: z.string(),
        size: z.number().int(),
        connections: z.array(z.string()).describe("Names of the connections open on this file"),
      }),
    ),
  })
  .meta({ id: "DatabaseFiles" });

const NameParamsSchema = z.object({ name: z.string() });

const listConnections = createRoute({
  method: "get",
  path: "/api/v2/databases/connections",
  tags: ["databases"],
  summary: "The named database connections (credentials never shown)",
  responses: { 200: jsonContent(z.object({ connections: z.array(ConnectionSchema) }), "The connections") },
});

const connectDatabase = createRoute({
  method: "post",
  path: "/api/v2/databases/connections",
  tags: ["databases"],
  summary: "Opens a database under a name: a SQLite file of the database directory, or PostgreSQL",
  request: { body: { ...jsonContent(ConnectRequestSchema, "What to connect"), required: true } },
  responses: {
    201: jsonContent(ConnectedSchema, "Connected"),
    ...errorResponses(400, 403, 404, 409, 422),
  },
});

const disconnectDatabase = createRoute({
  method: "delete",
  path: "/api/v2/databases/connections/{name}",
  tags: ["databases"],
  summary: "Closes a named connection (not the default one)",
  request: { params: NameParamsSchema },
  responses: { 204: { description: "Disconnected" }, ...errorResponses(400, 404) },
});

const listDatabases = createRoute({
  method: "get",
  path: "/api/v2/databases",
  tags: ["databases"],
  summary: "The SQLite files of the database directory (DB_PATH, else the work directory)",
  responses: { 200: jsonContent(DatabaseListSchema, "The files, by name"), ...errorResponses(404) },
});

const createDatabase = createRoute({
  method: "post",
  path: "/api/v2/databases",
  tags: ["databases"],
  summary: "Creates an empty karenina SQLite database in the database directory",
  request: {
    body: {
      ...jsonContent(
        z.object({ name: z.string().min(1).max(100) }),
        "The file name (`.db` appended when missing)",
      ),
      required: true,
    },
  },
  responses: {
    201: jsonContent(z.object({ name: z.string(), size: z.number().int() }), "Created"),
    ...errorResponses(403, 404, 409, 422),
  },
});

const deleteDatabase = createRoute({
  method: "delete",
  path: "/api/v2/databases/{name}",
  tags: ["databases"],
  summary: "Deletes a SQLite file of the database directory (its connections closed first)",
  request: { params: NameParamsSchema },
  responses: { 204: { description: "Deleted" }, ...errorResponses(403, 404, 422) },
});

/** Databases: named connections and the SQLite files of the database directory (spec 07 §2.2, §1.7). */
export const databaseRoutes: RouteGroup = (app, deps, hooks) => {
  const connections = connectionsOf(deps);
  const directory = () => databaseDirectory(deps.workDir, deps.env);
  hooks?.onShutdown(() => connections.closeAll());

  app.openapi(listConnections, (c) => c.json({ connections: connections.list() }, 200));

  app.openapi(connectDatabase, async (c) => {
    const body = c.req.valid("json");
    if ((body.sqlite_file === undefined) === (body.postgres_url === undefined)) {
      throw new ApiError(422, "invalid_request", "body: give exactly one of sqlite_file and postgres_url");
    }
    const file =
      body.sqlite_file === undefined
        ? null
        : await containedDatabaseFile(directory(), withDbExtension(body.sqlite_file));
    const connection = await libraryCall(() =>
      connections.connect(body.name, file ?? (body.postgres_url as string), file, body.create_if_missing),
    );
    const benchmarks = await libraryCall(() => connections.storage(body.name).listBenchmarks());
    return c.json({ connection, benchmark_count: benchmarks.length }, 201);
  });

  app.openapi(disconnectDatabase, async (c) => {
    await connections.disconnect(c.req.valid("param").name);
    return c.body(null, 204);
  });

  app.openapi(listDatabases, async (c) => {
    const dir = directory();
    const open = connections.list();
    const files = await listDatabaseFiles(dir);
    const databases = files.map((file) => ({
      ...file,
      connections: open.filter((cn) => cn.file === join(dir, file.name)).map((cn) => cn.name),
    }));
    return c.json({ db_directory: dir, databases }, 200);
  });

  app.openapi(createDatabase, async (c) => {
    const name = withDbExtension(c.req.valid("json").name);
    const file = await containedDatabaseFile(directory(), name);
    if ((await listDatabaseFiles(directory())).some((existing) => existing.name === name)) {
      throw ApiError.conflict(`database ${JSON.stringify(name)} exists`);
    }
    const storage = await libraryCall(() => openStorage(file));
    await storage.close();
    const created = (await listDatabaseFiles(directory())).find((existing) => existing.name === name);
    return c.json({ name, size: created?.size ?? 0 }, 201);
  });

  app.openapi(deleteDatabase, async (c) => {
    const file = await containedDatabaseFile(directory(), c.req.valid("param").name);
    if (file === (await ownDatabaseFile(deps.workDir, deps.storageUrl))) {
      throw new ApiError(403, "forbidden", "the server's own database cannot be deleted while it runs");
    }
    await connections.disconnectFile(file);
    await unlink(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT")
        throw ApiError.notFound(`database ${JSON.stringify(c.req.valid("param").name)}`);
      throw error;
    });
    for (const suffix of ["-wal", "-shm"]) await unlink(`${file}${suffix}`).catch(() => undefined);
    return c.body(null, 204);
  });
};
