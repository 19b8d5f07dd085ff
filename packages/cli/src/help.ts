/** The help text of every verb (`junction <verb> --help`) and of the command itself. */

export const exitCodes = `Exit codes:
  0  success (validate: the document is valid)
  1  failure: invalid document, invalid inputs, a failed run
  2  usage error: unknown verb or flag, missing file
  3  the run stopped for decisions (a tool call waits for approval); it is kept in --store
  130 interrupted (Ctrl-C)`;

export const usage: Record<string, string> = {
  junction: `junction — run, check and serve Junction pipelines

Usage: junction <verb> [options]

Verbs:
  init [dir]             start a project: package.json, tsconfig.json and a starter app.ts
  run <file>             run a pipeline once and print its outputs
  validate <file>        check a pipeline document; list every problem
  draw <file>            print the pipeline as a mermaid diagram
  schema <file>          print the request/response JSON Schemas (--openapi: the server's OpenAPI)
  serve <files|dir>      serve pipelines over HTTP (run, stream, OpenAI-compatible chat, MCP)
  mcp <files|dir>        serve pipelines as MCP tools over stdio (for desktop clients)
  dev <files|dir>        serve --watch plus the local playground page (/playground/)
  runs list|show|resume  the runs kept in a store directory: the approval inbox (--store <dir>)
  eval <file>            score a pipeline on labeled questions (recall, MRR, NDCG…); gate CI with --min

Files: pipeline documents (.json, .yaml, .yml) or modules whose default export is a pipeline, a
component, or an object of them (.ts, .mts, .js, .mjs).

Common options:
  --registry <module>    a module exporting a registry with your components and functions
  -h, --help             help for a verb: junction <verb> --help

${exitCodes}`,
  run: `junction run <file> [--input name=value]... [--stream] [--json] [--quiet] [--store <dir>]

Runs the pipeline once and prints its outputs. When the run stops for decisions (a tool call that needs
approval), it prints the run id and what waits, and exits 3 — with --store, the run is kept there for
\`junction runs resume\`; without it, the run cannot be resumed (exit 1).

Options:
  -i, --input name=value  an input: a declared name, or component.socket. value is JSON, else text;
                          @path reads it from a file. Repeat for several inputs.
  --stream                print streamed text (model tokens) as it arrives
  --json                  print { outputs, never_ran } as JSON (for scripts)
  -q, --quiet             no progress spinner
  --registry <module>     a module exporting a registry
  --name <name>           which pipeline, when the module exports several
  --store <dir>           keep a run that stops for decisions in this directory

${exitCodes}`,
  eval: `junction eval <file> --dataset <file.jsonl> [--metrics recall,mrr,ndcg] [--min metric=value]...

Runs the pipeline once per dataset row, scores it, and prints the aggregated table. A row whose run
fails is listed on stderr and scored NaN; the others still count.

Dataset (JSONL, one object a line):
  question                the text given to the pipeline (see --input)
  ground_truth_documents  the passages that answer it: texts, or Document JSON ({ "id", "content", "meta" })
  ground_truth_answer     the reference answer (for exact_match)

Options:
  -d, --dataset <file>        the labeled questions (required)
  -m, --metrics <list>        recall, recall_multi, mrr, ndcg, map, exact_match (default recall,mrr,ndcg)
  -i, --input comp.socket=field
                              which row field feeds which pipeline input; repeatable. Default: question
                              goes to every open mandatory input named query, text or question
  --documents comp.socket     the output holding the retrieved documents (default: the one "documents"
                              output, unconnected ones first)
  --answer comp.socket        the output holding the answer (default: the one "replies"/"answer" output)
  --comparison-field <field>  content (default), id, or meta.<key>: how documents are matched
  -c, --concurrency <n>       rows run at the same time (default 4)
  --run-name <name>           the run's name in reports (default: the pipeline's name)
  --compare <previous.json>   show the change against a run saved with --out
  -o, --out <file.json>       save the run (scores per row) as JSON, for --compare later
  --csv <file>                save the per-question scores as CSV
  --html <file>               save a self-contained HTML report (chart + per-question table)
  --min metric=value          exit 4 when the metric's score is below value; repeatable
  -q, --quiet                 no progress bar
  --registry <module>         a module exporting a registry
  --name <name>               which pipeline, when the module exports several

${exitCodes}
  4  a --min threshold was not met (eval)`,
  init: `junction init [dir] [--tarballs <dir>]

Writes a project of your own into dir (default: the current directory): package.json (the Junction
packages, zod, TypeScript), tsconfig.json (so \`npx tsc --noEmit\` type-checks your files) and app.ts, a
starter pipeline — an agent with a tool and a router on how it stopped — that runs offline with a
scripted model. Refuses to overwrite any of the three files.

  --tarballs <dir>   take the Junction packages from the tarballs in <dir> (file: dependencies), for
                     packages that are not on your npm registry. Make them in a Junction checkout:
                       npm run build
                       npx -y pnpm@12.4.2 -r --filter "./packages/*" pack --pack-destination <dir>

${exitCodes}`,
  validate: `junction validate <file> [--registry <module>]

Loads the document with every check (shape, component types, params, connections, declared inputs
and outputs, inputs a remote caller cannot give) and lists every problem. Exit code 0 when valid, 1 when not.

${exitCodes}`,
  draw: `junction draw <file> [--registry <module>]

Prints the pipeline as a mermaid flowchart (drawn offline).

${exitCodes}`,
  schema: `junction schema <file> [--openapi] [--registry <module>]

Prints the JSON Schemas of the request and the response ({ input, output }), derived from the socket
types and the declared inputs/outputs. --openapi prints the OpenAPI 3.1 document \`junction serve\` would serve.

${exitCodes}`,
  serve: `junction serve <files|dir>... [--host 127.0.0.1] [--port 3700] [--watch]

Serves every pipeline over HTTP: /pipelines/{name}/run and /stream, /openapi.json, the OpenAI-compatible
/v1/chat/completions, and /mcp. A directory serves every document in it, each named after its file.

Options:
  --host <host>           interface to bind (default 127.0.0.1: this machine only)
  -p, --port <port>       port (default 3700; 0 picks a free one)
  -w, --watch             reload when a file changes (a broken file keeps the previous version)
  --allowed-host <name>   another Host name to answer to (repeatable; "*" turns the check off)
  --cors-origin <origin>  a browser origin allowed to call (repeatable)
  --no-openai             no /v1 routes
  --no-mcp                no /mcp
  --store <dir>           keep runs that stop for decisions in this directory and serve /runs,
                          /runs/{id} and POST /runs/{id}/resume (the approval inbox)
  --run-timeout <ms>      stop a run after this long, answered 504 (default 600000; 0: no limit)
  --headers-timeout <ms>  time a client has to send its headers (default 30000)
  --request-timeout <ms>  time a client has to send a whole request (default 60000)
  --keep-alive-timeout <ms>  idle keep-alive connections close after this (default 5000)
  --registry <module>     a module exporting a registry

Set JUNCTION_API_KEY to require "Authorization: Bearer <key>" on every route.

${exitCodes}`,
  dev: `junction dev <files|dir>... [--host 127.0.0.1] [--port 3700] [--no-watch]

Serves the pipelines like \`junction serve --watch\` and adds the playground at /playground/: each
pipeline's graph, a form to run it, the run live (components, streamed tokens, agent steps and tool
plans, the route taken), a span timeline, and the approval inbox of interrupted runs. The page is
prebuilt static files and talks to this server only.

Options:
  --host <host>           interface to bind (default 127.0.0.1: this machine only)
  -p, --port <port>       port (default 3700; 0 picks a free one)
  --no-watch              do not reload when a file changes
  --allowed-host <name>   another Host name to answer to (repeatable)
  --no-openai             no /v1 routes
  --no-mcp                no /mcp
  --store <dir>           keep runs in this directory (default: in memory, lost on exit)
  --run-timeout <ms>      stop a run after this long (default 600000; 0: no limit)
  --registry <module>     a module exporting a registry

${exitCodes}`,
  mcp: `junction mcp <files|dir>... [--registry <module>]

Serves the pipelines as MCP tools over stdio, for desktop clients (Claude Desktop, Cursor…):
  { "command": "npx", "args": ["junction", "mcp", "/path/to/pipeline.yaml"] }
Logs go to stderr; stdout carries only the protocol.

${exitCodes}`,
  runs: `junction runs list --store <dir> [--status interrupted] [--limit 100] [--json]
junction runs show <runId> --store <dir> [--json]
junction runs resume <runId> <files|dir> --store <dir> (--approve | --reject [--message <text>] | --decisions <json|@file>) [--json]

The runs kept in a store directory (written by junction run --store, junction serve --store, or your
code with new FileRunStore(dir)): the approval inbox on the command line.

  list     runs, most recent first, with what each waits for (tool, arguments)
  show     one run: status, history, pending interrupts, outputs or error
  resume   decide and continue: --approve or --reject every pending interrupt, or --decisions with
           { "<interrupt id>": { "action": "approve" | "edit" | "reject" | "respond", ... } }.
           The files hold the pipeline the run belongs to (the same definition it paused with).
           Of two resumes of one run, exactly one wins; the other exits 1 (RUN_ALREADY_RESUMED).
           A run left "running" by a process that died is taken over with --decisions '{}'
           (refused with RUN_IN_PROGRESS while its process lives; see docs/interrupts.md).

Options:
  --store <dir>           the store directory (required)
  --status <status>       list only running, interrupted, completed or failed runs
  --limit <n>             list at most n runs (default 100)
  --json                  print JSON (for scripts)
  --registry <module>     a module exporting a registry

${exitCodes}`,
};
