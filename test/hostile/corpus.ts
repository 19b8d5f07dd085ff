import { baseDocument } from "./components.js";

/**
 * The hostile-document corpus: inputs an attacker (or a careless editor) could hand to `Pipeline.fromJSON`
 * or `Pipeline.fromYAML`. Each one must be refused with a clear `DeserializationError`, or load harmlessly;
 * none may pollute a prototype, run code, hang or crash.
 */

/** How one hostile input is given to the loader (large inputs are built lazily, when their test runs). */
export type HostileInput =
  | { readonly json: string | (() => string) }
  | { readonly yaml: string | (() => string) }
  | { readonly value: () => unknown };

/** What must happen. */
export type HostileExpectation =
  | {
      /** The load is refused; the message matches, and (when given) the issue paths are these. */
      readonly rejects: RegExp;
      readonly paths?: readonly string[];
      /** Text that must not appear anywhere in the error (a credential). */
      readonly secret?: string;
    }
  | { readonly loads: true };

/** One corpus entry. */
export interface HostileCase {
  readonly name: string;
  readonly input: HostileInput;
  readonly expect: HostileExpectation;
}

const TOKEN = "sk-proj-HOSTILE-0123456789abcdef";

function withDoc(mutate: (doc: Record<string, any>) => void): string {
  const doc = baseDocument() as Record<string, any>;
  mutate(doc);
  return JSON.stringify(doc);
}

/** JSON text with a raw `"__proto__"` key spliced in (JSON.stringify would drop a real prototype). */
function protoJSON(where: "top" | "metadata" | "init" | "component" | "connection" | "array"): string {
  const payload = '{"polluted": "yes", "isAdmin": true}';
  const doc = JSON.stringify(baseDocument());
  switch (where) {
    case "top":
      return doc.replace('{"version":1', `{"__proto__": ${payload}, "version":1`);
    case "metadata":
      return doc.replace('"metadata":{}', `"metadata":{"__proto__": ${payload}}`);
    case "init":
      return doc.replace('"options":{}', `"options":{"__proto__": ${payload}}`);
    case "component":
      return doc.replace('"components":{', `"components":{"__proto__": {"type": "hostile.Echo"},`);
    case "connection":
      return doc.replace('{"sender":"first.text"', `{"__proto__": ${payload}, "sender":"first.text"`);
    case "array":
      return doc.replace('"list":[]', `"list":[1, {"a": {"__proto__": ${payload}}}]`);
  }
}

const nested = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;

function billionLaughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (const [name, previous] of [
    ["b", "a"],
    ["c", "b"],
    ["d", "c"],
    ["e", "d"],
    ["f", "e"],
    ["g", "f"],
    ["h", "g"],
  ] as const) {
    lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(",")}]`);
  }
  return `version: 1\nmetadata:\n${lines.map((line) => `  ${line}`).join("\n")}\n`;
}

/** Shared references that expand exponentially when copied naively (2^40 leaves). */
function exponentialObject(): unknown {
  let node: unknown = ["leaf"];
  for (let level = 0; level < 40; level++) node = [node, node];
  return { ...baseDocument(), metadata: { bomb: node } };
}

function cyclicObject(): unknown {
  const metadata: Record<string, unknown> = {};
  metadata.self = metadata;
  return { ...baseDocument(), metadata };
}

function objectWithGetter(): unknown {
  const doc = baseDocument();
  Object.defineProperty(doc, "metadata", {
    enumerable: true,
    get() {
      (globalThis as { pwned?: boolean }).pwned = true;
      return {};
    },
  });
  return doc;
}

export const hostileCases: readonly HostileCase[] = [
  // Prototype keys.
  ...(["top", "metadata", "init", "component", "connection", "array"] as const).map(
    (where): HostileCase => ({
      name: `"__proto__" key (${where})`,
      input: { json: protoJSON(where) },
      expect: { rejects: /"__proto__" is not allowed/ },
    }),
  ),
  {
    name: '"__proto__" key in YAML',
    input: { yaml: "version: 1\nmetadata:\n  __proto__:\n    polluted: yes\n" },
    expect: { rejects: /"__proto__" is not allowed/, paths: ["metadata.__proto__"] },
  },
  {
    name: '"constructor" / "prototype" keys load as plain data',
    input: {
      json: () =>
        withDoc((doc) => {
          doc.metadata = { constructor: { prototype: { polluted: "yes" } }, prototype: { isAdmin: true } };
          doc.components.first.init_parameters.options = { constructor: { name: "Object" } };
        }),
    },
    expect: { loads: true },
  },
  {
    name: "component names that shadow Object.prototype members",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.components = {
            valueOf: { type: "hostile.Echo" },
            toString: { type: "hostile.Echo" },
            hasOwnProperty: { type: "hostile.Echo" },
            __defineGetter__: { type: "hostile.Echo" },
          };
          doc.connections = [
            { sender: "valueOf.text", receiver: "toString.text" },
            { sender: "toString.text", receiver: "hasOwnProperty.text" },
          ];
        }),
    },
    expect: { loads: true },
  },
  // Reserved names (#14 item 5): refused at load time with the document path.
  {
    name: '"constructor" and "prototype" as component names',
    input: {
      json: () =>
        withDoc((doc) => {
          doc.components = { constructor: { type: "hostile.Echo" }, prototype: { type: "hostile.Echo" } };
          doc.connections = [];
        }),
    },
    expect: {
      rejects: /"constructor" cannot be a component name/,
      paths: ["components.constructor", "components.prototype"],
    },
  },
  {
    name: '"__proto__" as a ConditionalRouter output name',
    input: {
      json: () =>
        withDoc((doc) => {
          doc.components = {
            router: {
              type: "junction.ConditionalRouter",
              init_parameters: {
                routes: [
                  { condition: "true", output: "x", outputName: "__proto__", outputType: { type: "string" } },
                ],
              },
            },
          };
          doc.connections = [];
        }),
    },
    expect: {
      rejects: /"__proto__" cannot be an output name/,
      paths: ["components.router.init_parameters.routes[0].outputName"],
    },
  },
  {
    name: '"constructor" as a variable of a route (an input socket)',
    input: {
      json: () =>
        withDoc((doc) => {
          doc.components = {
            router: {
              type: "junction.ConditionalRouter",
              init_parameters: {
                routes: [
                  {
                    condition: "constructor == 1",
                    output: "1",
                    outputName: "one",
                    outputType: { type: "integer" },
                  },
                ],
              },
            },
          };
          doc.connections = [];
        }),
    },
    expect: { rejects: /reads the variable "constructor"/ },
  },
  {
    name: "reserved component name",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.components._debug = { type: "hostile.Echo" };
        }),
    },
    expect: { rejects: /reserved/, paths: ["components._debug"] },
  },
  // Types that name code.
  {
    name: "types naming modules, globals and prototype members",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.components = Object.fromEntries(
            [
              "constructor",
              "__proto__x",
              "toString",
              "Object",
              "eval",
              "Function",
              "process",
              "node:child_process",
              "../../../etc/passwd",
              "require('child_process').execSync('touch /tmp/pwned')",
              "globalThis.process.exit",
            ].map((type, index) => [`c${index}`, { type, init_parameters: {} }]),
          );
          doc.connections = [];
        }),
    },
    expect: {
      rejects: /unknown component type/,
      paths: Array.from({ length: 11 }, (_, i) => `components.c${i}.type`),
    },
  },
  // Size and depth.
  {
    name: "deeply nested metadata (100 000 levels)",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.metadata = { deep: "__DEEP__" };
        }).replace('"__DEEP__"', nested(100_000)),
    },
    expect: { rejects: /nested deeper than 64 levels/ },
  },
  {
    name: "deeply nested YAML flow collections",
    input: { yaml: `version: 1\nmetadata:\n  deep: ${nested(5_000)}\n` },
    expect: { rejects: /nested too deeply|nested deeper/ },
  },
  {
    name: "a 3 MB string loads",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.metadata = { big: "x".repeat(3_000_000) };
        }),
    },
    expect: { loads: true },
  },
  {
    name: "a 300 000 element array is refused",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.metadata = { big: new Array(300_000).fill(0) };
        }),
    },
    expect: { rejects: /more than 250000 values/ },
  },
  {
    name: "YAML longer than the limit",
    input: { yaml: () => `version: 1\nmetadata:\n  big: ${"y".repeat(5 * 1024 * 1024)}\n` },
    expect: { rejects: /at most 4194304 are read/ },
  },
  {
    name: "numbers beyond double range",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.metadata = { n: "__N__" };
        }).replace('"__N__"', "1e400"),
    },
    expect: { rejects: /Infinity is not a JSON number/, paths: ["metadata.n"] },
  },
  {
    name: "max_runs_per_component out of range",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.max_runs_per_component = 1e308;
        }),
    },
    expect: { rejects: /Too big/, paths: ["max_runs_per_component"] },
  },
  // JavaScript values handed to fromJSON directly.
  {
    name: "shared references (2^40 leaves)",
    input: { value: exponentialObject },
    expect: { rejects: /more than/ },
  },
  { name: "a cycle", input: { value: cyclicObject }, expect: { rejects: /nested deeper/ } },
  {
    name: "a getter is never invoked",
    input: { value: objectWithGetter },
    expect: { rejects: /accessor/, paths: ["metadata"] },
  },
  {
    name: "functions, symbols, bigints, dates and class instances",
    input: {
      value: () => ({
        ...baseDocument(),
        metadata: { f: () => 1, s: Symbol("x"), b: 10n, d: new Date(0), m: new Map(), r: /x/ },
      }),
    },
    expect: {
      rejects: /expected JSON data/,
      paths: ["metadata.f", "metadata.s", "metadata.b", "metadata.d", "metadata.m", "metadata.r"],
    },
  },
  // YAML tags and anchors.
  ...[
    '!!js/function "function () { globalThis.pwned = true }"',
    "!!js/undefined ''",
    "!!js/regexp /x/",
    '!!python/object/apply:os.system ["touch /tmp/pwned"]',
    "!!python/name:builtins.eval",
    "!<tag:yaml.org,2002:js/function> 'x'",
    "!custom value",
    "!!str 1",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!omap [a: 1]",
    "!!timestamp 2001-12-14",
  ].map(
    (tagged): HostileCase => ({
      name: `YAML tag ${tagged.split(" ")[0]}`,
      input: { yaml: `version: 1\nmetadata:\n  value: ${tagged}\n` },
      expect: { rejects: /the YAML tag .* is not allowed/ },
    }),
  ),
  { name: "YAML billion laughs", input: { yaml: billionLaughs() }, expect: { rejects: /alias/i } },
  {
    name: "a few YAML aliases load as copies",
    input: { yaml: "version: 1\nmetadata:\n  base: &b {x: 1}\n  copy: *b\n" },
    expect: { loads: true },
  },
  {
    name: "YAML merge keys are plain keys (refused where keys are checked)",
    input: {
      yaml: "version: 1\ncomponents:\n  a:\n    <<: {type: hostile.Echo}\n    type: hostile.Echo\n",
    },
    expect: { rejects: /Unrecognized key/, paths: ["components.a"] },
  },
  {
    name: "YAML 1.1 directive does not revive 1.1 types",
    input: {
      yaml: "%YAML 1.1\n---\nversion: 1\nmetadata:\n  yes_is: yes\n  date: 2001-12-14\n  octal: 0777\n",
    },
    expect: { loads: true },
  },
  {
    name: "several YAML documents",
    input: { yaml: "version: 1\n---\nversion: 1\n" },
    expect: { rejects: /document/i },
  },
  {
    name: "duplicate YAML keys",
    input: { yaml: "version: 1\nversion: 1\n" },
    expect: { rejects: /unique/i },
  },
  { name: "empty YAML", input: { yaml: "" }, expect: { rejects: /must be a JSON object/ } },
  // Socket addresses.
  ...[
    "",
    ".",
    "first.",
    ".text",
    "first..text",
    "first.text.extra",
    "first.__proto__",
    "first.constructor",
    "first.toString",
    "fir st.text",
    "first.text\u0000",
    "💥.text",
    `first.${"x".repeat(100_000)}`,
  ].map(
    (address): HostileCase => ({
      name: `odd sender address ${JSON.stringify(address.slice(0, 24))}`,
      input: {
        json: () =>
          withDoc((doc) => {
            doc.connections = [{ sender: address, receiver: "second.text" }];
          }),
      },
      expect: { rejects: /connections\[0\]\.sender|socket address/, paths: ["connections[0].sender"] },
    }),
  ),
  {
    name: "20 000 connections to unknown components, 1 000 components",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.components = Object.fromEntries(
            Array.from({ length: 1000 }, (_, index) => [`c${index}`, { type: "hostile.Echo" }]),
          );
          doc.connections = Array.from({ length: 20_000 }, (_, index) => ({
            sender: `ghost${index}.text`,
            receiver: "c0.text",
          }));
        }),
    },
    expect: { rejects: /\(20000 problems\)[\s\S]*and 19950 more \(see error.issues\)$/ },
  },
  {
    name: "connections to self and duplicate connections",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.connections = [
            { sender: "first.text", receiver: "first.text" },
            { sender: "first.text", receiver: "second.text" },
            { sender: "first.text", receiver: "second.text" },
          ];
        }),
    },
    expect: { rejects: /itself/, paths: ["connections[0]"] },
  },
  // Secrets.
  {
    name: "a literal token given as a secret",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.components.first = { type: "hostile.Client", init_parameters: { apiKey: TOKEN } };
        }),
    },
    expect: {
      rejects: /literal string is not accepted/,
      paths: ["components.first.init_parameters.apiKey"],
      secret: TOKEN,
    },
  },
  {
    name: "a token-typed secret",
    input: {
      json: () =>
        withDoc((doc) => {
          doc.components.first = {
            type: "hostile.Client",
            init_parameters: { apiKey: { type: "token", token: TOKEN } },
          };
        }),
    },
    expect: { rejects: /token secrets cannot be loaded/, secret: TOKEN },
  },
  {
    name: "a token smuggled next to an env-var secret",
    input: {
      yaml: `version: 1\ncomponents:\n  c:\n    type: hostile.Client\n    init_parameters:\n      apiKey: {type: env_var, env_vars: [HOSTILE_KEY], token: ${TOKEN}}\n`,
    },
    expect: { rejects: /unknown key in a secret/, secret: TOKEN },
  },
  {
    name: "a token as an env-var name in malformed YAML",
    input: { yaml: `version: 1\ncomponents: [${TOKEN}\n` },
    expect: { rejects: /line \d+/, secret: TOKEN },
  },
  // YAML keys that are not scalars (#14 item 4): the yaml library would stringify them.
  {
    name: "YAML sequence as a mapping key",
    input: { yaml: "version: 1\nmetadata:\n  ? [a, b]\n  : 1\n" },
    expect: { rejects: /mapping key is a sequence/, paths: ["metadata"] },
  },
  {
    name: "YAML mapping as a mapping key, inside a list",
    input: { yaml: "version: 1\nmetadata:\n  list:\n    - x: 1\n      ? {a: 1}\n      : 2\n" },
    expect: { rejects: /mapping key is a mapping/, paths: ["metadata.list[0]"] },
  },
  {
    name: "YAML alias of a sequence as a mapping key",
    input: { yaml: "version: 1\nmetadata:\n  k: &s [1]\n  ? *s\n  : 2\n" },
    expect: { rejects: /mapping key is a sequence/, paths: ["metadata"] },
  },
  // Huge values quoted in messages (#14 item 3): every quote is a bounded excerpt.
  {
    name: "a 50 MB sender string",
    input: {
      value: () => ({
        ...baseDocument(),
        connections: [{ sender: `first.${"s".repeat(50_000_000)}`, receiver: "second.text" }],
      }),
    },
    expect: { rejects: /characters\)/, paths: ["connections[0].sender"] },
  },
  {
    name: "a 50 MB component type name",
    input: {
      value: () => ({
        ...baseDocument(),
        components: { first: { type: "t".repeat(50_000_000), init_parameters: {} } },
        connections: [],
      }),
    },
    expect: { rejects: /characters\)/, paths: ["components.first.type"] },
  },
  {
    name: "a 50 MB component name",
    input: {
      value: () => ({
        ...baseDocument(),
        components: { ["n".repeat(50_000_000)]: { type: "hostile.Missing" } },
        connections: [],
      }),
    },
    expect: { rejects: /characters\)/ },
  },
  // Shapes.
  {
    name: "wrong shapes everywhere",
    input: {
      json: JSON.stringify({
        version: "1",
        metadata: [],
        max_runs_per_component: -1,
        connection_type_validation: "yes",
        components: [],
        connections: {},
      }),
    },
    expect: {
      rejects: /cannot load the document \(6 problems\)/,
      paths: [
        "version",
        "metadata",
        "max_runs_per_component",
        "connection_type_validation",
        "components",
        "connections",
      ],
    },
  },
];
