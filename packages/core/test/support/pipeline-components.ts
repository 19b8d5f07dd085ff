import { defineComponent, greedyVariadic, variadic } from "@junction/core";
import { z } from "zod";

/** Test components shared by the pipeline tests (type names prefixed "ptest."). */

export const AddFixedValue = defineComponent({
  type: "ptest.AddFixedValue",
  params: z.object({ add: z.number().default(1) }),
  inputs: { value: z.number(), add: z.number().optional() },
  outputs: { result: z.number() },
  run: ({ value, add }, { params }) => ({ result: value + (add ?? params.add) }),
});

export const Double = defineComponent({
  type: "ptest.Double",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value * 2 }),
});

export const Sum = defineComponent({
  type: "ptest.Sum",
  inputs: { values: variadic(z.number()) },
  outputs: { total: z.number() },
  run: ({ values }) => ({ total: values.reduce((a, b) => a + b, 0) }),
});

export const Collect = defineComponent({
  type: "ptest.Collect",
  inputs: { values: variadic(z.string()) },
  outputs: { joined: z.string() },
  run: ({ values }) => ({ joined: values.join(",") }),
});

export const Join = defineComponent({
  type: "ptest.Join",
  inputs: { value: greedyVariadic(z.number()) },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value[0]! }),
});

export const Threshold = defineComponent({
  type: "ptest.Threshold",
  params: z.object({ threshold: z.number() }),
  inputs: { value: z.number() },
  outputs: { above: z.number(), below: z.number() },
  run: ({ value }, { params }) => (value >= params.threshold ? { above: value } : { below: value }),
});

export const ListSink = defineComponent({
  type: "ptest.ListSink",
  inputs: { items: z.array(z.string()) },
  outputs: { items: z.array(z.string()) },
  run: ({ items }) => ({ items }),
});

export const Words = defineComponent({
  type: "ptest.Words",
  params: z.object({ words: z.array(z.string()) }),
  inputs: {},
  outputs: { words: z.array(z.string()) },
  run: (_inputs, { params }) => ({ words: params.words }),
});

export const Echo = defineComponent({
  type: "ptest.Echo",
  params: z.object({ label: z.string().default("") }),
  inputs: { text: z.string() },
  outputs: { text: z.string() },
  run: ({ text }, { params }) => ({ text: `${text}${params.label}` }),
});

/** Resolves after `ms` milliseconds, or rejects with the signal's reason. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
