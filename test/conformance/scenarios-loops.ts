import type { Pipeline } from "@junction/core";
import { z } from "zod";
import { BranchJoiner } from "./components/builtins.js";
import {
  Accumulate,
  AddFixedValue,
  Double,
  Greet,
  Parity,
  Remainder,
  Repeat,
  Subtract,
  Sum,
  Threshold,
} from "./components/sample-numbers.js";
import type { Scenario } from "./harness.js";

/** Numeric cycles entered through a BranchJoiner: loops of equal and different lengths, conditional exits. */

export const loopScenarios: Scenario[] = [
  {
    name: "that is really complex with lots of components, forks, and loops",
    build: ({ pipeline }) => {
      const p = pipeline(3);
      p.addComponent("greet_first", new Greet({ message: "Hello, the value is {value}." }));
      p.addComponent("accumulate_1", new Accumulate());
      p.addComponent("add_two", new AddFixedValue({ add: 2 }));
      p.addComponent("parity", new Parity());
      p.addComponent("add_one", new AddFixedValue({ add: 1 }));
      p.addComponent("accumulate_2", new Accumulate());
      p.addComponent("branch_joiner", new BranchJoiner({ type: z.number() }));
      p.addComponent("below_10", new Threshold({ threshold: 10 }));
      p.addComponent("double", new Double());
      p.addComponent("greet_again", new Greet({ message: "Hello again, now the value is {value}." }));
      p.addComponent("sum", new Sum());
      p.addComponent(
        "greet_enumerator",
        new Greet({ message: "Hello from enumerator, here the value became {value}." }),
      );
      p.addComponent("enumerate", new Repeat({ outputs: ["first", "second"] }));
      p.addComponent("add_three", new AddFixedValue({ add: 3 }));
      p.addComponent("diff", new Subtract());
      p.addComponent("greet_one_last_time", new Greet({ message: "Bye bye! The value here is {value}!" }));
      p.addComponent("replicate", new Repeat({ outputs: ["first", "second"] }));
      p.addComponent("add_five", new AddFixedValue({ add: 5 }));
      p.addComponent("add_four", new AddFixedValue({ add: 4 }));
      p.addComponent("accumulate_3", new Accumulate());
      p.connect("greet_first", "accumulate_1");
      p.connect("accumulate_1", "add_two");
      p.connect("add_two", "parity");
      p.connect("parity.even", "greet_again");
      p.connect("greet_again", "sum.values");
      p.connect("sum", "diff.first_value");
      p.connect("diff", "greet_one_last_time");
      p.connect("greet_one_last_time", "replicate");
      p.connect("replicate.first", "add_five.value");
      p.connect("replicate.second", "add_four.value");
      p.connect("add_four", "accumulate_3");
      p.connect("parity.odd", "add_one.value");
      p.connect("add_one", "branch_joiner.value");
      p.connect("branch_joiner", "below_10");
      p.connect("below_10.below", "double");
      p.connect("double", "branch_joiner.value");
      p.connect("below_10.above", "accumulate_2");
      p.connect("accumulate_2", "diff.second_value");
      p.connect("greet_enumerator", "enumerate");
      p.connect("enumerate.second", "sum.values");
      p.connect("enumerate.first", "add_three.value");
      p.connect("add_three", "sum.values");
      return p;
    },
    runs: [
      {
        inputs: { greet_first: { value: 1 }, greet_enumerator: { value: 1 } },
        expectedOutputs: { accumulate_3: { value: -7 }, add_five: { result: -6 } },
        expectedComponentCalls: {
          "greet_first#1": { value: 1, log_level: undefined, message: undefined },
          "greet_enumerator#1": { value: 1, log_level: undefined, message: undefined },
          "accumulate_1#1": { value: 1 },
          "add_two#1": { value: 1, add: undefined },
          "parity#1": { value: 3 },
          "add_one#1": { value: 3, add: undefined },
          "branch_joiner#1": { value: [4] },
          "below_10#1": { value: 4, threshold: undefined },
          "double#1": { value: 4 },
          "branch_joiner#2": { value: [8] },
          "below_10#2": { value: 8, threshold: undefined },
          "double#2": { value: 8 },
          "branch_joiner#3": { value: [16] },
          "below_10#3": { value: 16, threshold: undefined },
          "accumulate_2#1": { value: 16 },
          "enumerate#1": { value: 1 },
          "add_three#1": { value: 1, add: undefined },
          "sum#1": { values: [1, 4] },
          "diff#1": { first_value: 5, second_value: 16 },
          "greet_one_last_time#1": { value: -11, log_level: undefined, message: undefined },
          "replicate#1": { value: -11 },
          "add_five#1": { value: -11, add: undefined },
          "add_four#1": { value: -11, add: undefined },
          "accumulate_3#1": { value: -7 },
        },
      },
    ],
  },
  {
    name: "that has two loops of identical lengths",
    build: ({ pipeline }) => {
      const p = pipeline(2);
      p.addComponent("branch_joiner", new BranchJoiner({ type: z.number() }));
      p.addComponent("remainder", new Remainder({ divisor: 3 }));
      p.addComponent("add_one", new AddFixedValue({ add: 1 }));
      p.addComponent("add_two", new AddFixedValue({ add: 2 }));
      p.connect("branch_joiner.value", "remainder.value");
      p.connect("remainder.remainder_is_1", "add_two.value");
      p.connect("remainder.remainder_is_2", "add_one.value");
      p.connect("add_two", "branch_joiner.value");
      p.connect("add_one", "branch_joiner.value");
      return p;
    },
    runs: [
      {
        inputs: { branch_joiner: { value: 0 } },
        expectedOutputs: { remainder: { remainder_is_0: 0 } },
        expectedComponentCalls: { "branch_joiner#1": { value: [0] }, "remainder#1": { value: 0 } },
      },
      {
        inputs: { branch_joiner: { value: 3 } },
        expectedOutputs: { remainder: { remainder_is_0: 3 } },
        expectedComponentCalls: { "branch_joiner#1": { value: [3] }, "remainder#1": { value: 3 } },
      },
      {
        inputs: { branch_joiner: { value: 4 } },
        expectedOutputs: { remainder: { remainder_is_0: 6 } },
        expectedComponentCalls: {
          "branch_joiner#1": { value: [4] },
          "remainder#1": { value: 4 },
          "add_two#1": { value: 4, add: undefined },
          "branch_joiner#2": { value: [6] },
          "remainder#2": { value: 6 },
        },
      },
      {
        inputs: { branch_joiner: { value: 5 } },
        expectedOutputs: { remainder: { remainder_is_0: 6 } },
        expectedComponentCalls: {
          "branch_joiner#1": { value: [5] },
          "remainder#1": { value: 5 },
          "add_one#1": { value: 5, add: undefined },
          "branch_joiner#2": { value: [6] },
          "remainder#2": { value: 6 },
        },
      },
      {
        inputs: { branch_joiner: { value: 6 } },
        expectedOutputs: { remainder: { remainder_is_0: 6 } },
        expectedComponentCalls: { "branch_joiner#1": { value: [6] }, "remainder#1": { value: 6 } },
      },
    ],
  },
  {
    name: "that has two loops of different lengths",
    build: ({ pipeline }) => {
      const p = pipeline(2);
      p.addComponent("branch_joiner", new BranchJoiner({ type: z.number() }));
      p.addComponent("remainder", new Remainder({ divisor: 3 }));
      p.addComponent("add_one", new AddFixedValue({ add: 1 }));
      p.addComponent("add_two_1", new AddFixedValue({ add: 1 }));
      p.addComponent("add_two_2", new AddFixedValue({ add: 1 }));
      p.connect("branch_joiner.value", "remainder.value");
      p.connect("remainder.remainder_is_1", "add_two_1.value");
      p.connect("add_two_1", "add_two_2.value");
      p.connect("add_two_2", "branch_joiner");
      p.connect("remainder.remainder_is_2", "add_one.value");
      p.connect("add_one", "branch_joiner");
      return p;
    },
    runs: [
      {
        inputs: { branch_joiner: { value: 0 } },
        expectedOutputs: { remainder: { remainder_is_0: 0 } },
        expectedComponentCalls: { "branch_joiner#1": { value: [0] }, "remainder#1": { value: 0 } },
      },
      {
        inputs: { branch_joiner: { value: 3 } },
        expectedOutputs: { remainder: { remainder_is_0: 3 } },
        expectedComponentCalls: { "branch_joiner#1": { value: [3] }, "remainder#1": { value: 3 } },
      },
      {
        inputs: { branch_joiner: { value: 4 } },
        expectedOutputs: { remainder: { remainder_is_0: 6 } },
        expectedComponentCalls: {
          "branch_joiner#1": { value: [4] },
          "remainder#1": { value: 4 },
          "add_two_1#1": { value: 4, add: undefined },
          "add_two_2#1": { value: 5, add: undefined },
          "branch_joiner#2": { value: [6] },
          "remainder#2": { value: 6 },
        },
      },
      {
        inputs: { branch_joiner: { value: 5 } },
        expectedOutputs: { remainder: { remainder_is_0: 6 } },
        expectedComponentCalls: {
          "branch_joiner#1": { value: [5] },
          "remainder#1": { value: 5 },
          "add_one#1": { value: 5, add: undefined },
          "branch_joiner#2": { value: [6] },
          "remainder#2": { value: 6 },
        },
      },
      {
        inputs: { branch_joiner: { value: 6 } },
        expectedOutputs: { remainder: { remainder_is_0: 6 } },
        expectedComponentCalls: { "branch_joiner#1": { value: [6] }, "remainder#1": { value: 6 } },
      },
    ],
  },
  {
    name: "that has a single loop with two conditional branches",
    build: ({ pipeline }) => buildLoopWithTwoConditionalBranches(pipeline(3)),
    runs: [
      {
        inputs: { add_one: { value: 3 } },
        expectedOutputs: { add_two: { result: 13 } },
        expectedComponentCalls: {
          "accumulator#1": { value: 4 },
          "accumulator#2": { value: 4 },
          "add_one#1": { add: undefined, value: 3 },
          "add_three#1": { add: undefined, value: 8 },
          "add_two#1": { add: undefined, value: 11 },
          "below_10#1": { threshold: undefined, value: 4 },
          "below_10#2": { threshold: undefined, value: 4 },
          "below_10#3": { threshold: undefined, value: 11 },
          "below_5#1": { threshold: undefined, value: 4 },
          "below_5#2": { threshold: undefined, value: 8 },
          "branch_joiner#1": { value: [4] },
          "branch_joiner#2": { value: [4] },
          "branch_joiner#3": { value: [11] },
        },
      },
    ],
  },
  {
    name: "that has a loop and returns intermediate outputs from it",
    build: ({ pipeline }) => buildLoopWithTwoConditionalBranches(pipeline(10)),
    runs: [
      {
        inputs: { add_one: { value: 3 } },
        includeOutputsFrom: [
          "add_two",
          "add_one",
          "branch_joiner",
          "below_10",
          "accumulator",
          "below_5",
          "add_three",
        ],
        expectedOutputs: {
          add_two: { result: 13 },
          add_one: { result: 4 },
          branch_joiner: { value: 11 },
          below_10: { above: 11 },
          accumulator: { value: 8 },
          below_5: { above: 8 },
          add_three: { result: 11 },
        },
        expectedComponentCalls: {
          "accumulator#1": { value: 4 },
          "accumulator#2": { value: 4 },
          "add_one#1": { add: undefined, value: 3 },
          "add_three#1": { add: undefined, value: 8 },
          "add_two#1": { add: undefined, value: 11 },
          "below_10#1": { threshold: undefined, value: 4 },
          "below_10#2": { threshold: undefined, value: 4 },
          "below_10#3": { threshold: undefined, value: 11 },
          "below_5#1": { threshold: undefined, value: 4 },
          "below_5#2": { threshold: undefined, value: 8 },
          "branch_joiner#1": { value: [4] },
          "branch_joiner#2": { value: [4] },
          "branch_joiner#3": { value: [11] },
        },
      },
    ],
  },
  {
    name: "that has two branches, one of which loops back",
    build: ({ pipeline }) => {
      const p = pipeline(10);
      p.addComponent("add_zero", new AddFixedValue({ add: 0 }));
      p.addComponent("branch_joiner", new BranchJoiner({ type: z.number() }));
      p.addComponent("sum", new Sum());
      p.addComponent("below_10", new Threshold({ threshold: 10 }));
      p.addComponent("add_one", new AddFixedValue({ add: 1 }));
      p.addComponent("counter", new Accumulate());
      p.addComponent("add_two", new AddFixedValue({ add: 2 }));
      p.connect("add_zero", "branch_joiner.value");
      p.connect("branch_joiner", "below_10.value");
      p.connect("below_10.below", "add_one.value");
      p.connect("add_one.result", "counter.value");
      p.connect("counter.value", "branch_joiner.value");
      p.connect("below_10.above", "add_two.value");
      p.connect("add_two.result", "sum.values");
      return p;
    },
    runs: [
      {
        inputs: { add_zero: { value: 8 }, sum: { values: 2 } },
        expectedOutputs: { sum: { total: 23 } },
        expectedComponentCalls: {
          "add_one#1": { add: undefined, value: 8 },
          "add_one#2": { add: undefined, value: 9 },
          "add_two#1": { add: undefined, value: 19 },
          "add_zero#1": { add: undefined, value: 8 },
          "below_10#1": { threshold: undefined, value: 8 },
          "below_10#2": { threshold: undefined, value: 9 },
          "below_10#3": { threshold: undefined, value: 19 },
          "branch_joiner#1": { value: [8] },
          "branch_joiner#2": { value: [9] },
          "branch_joiner#3": { value: [19] },
          "counter#1": { value: 9 },
          "counter#2": { value: 10 },
          "sum#1": { values: [2, 21] },
        },
      },
    ],
  },
];

/** The graph shared by "a single loop with two conditional branches" and "a loop and returns intermediate outputs". */
function buildLoopWithTwoConditionalBranches(p: Pipeline): Pipeline {
  p.addComponent("add_one", new AddFixedValue({ add: 1 }));
  p.addComponent("branch_joiner", new BranchJoiner({ type: z.number() }));
  p.addComponent("below_10", new Threshold({ threshold: 10 }));
  p.addComponent("below_5", new Threshold({ threshold: 5 }));
  p.addComponent("add_three", new AddFixedValue({ add: 3 }));
  p.addComponent("accumulator", new Accumulate());
  p.addComponent("add_two", new AddFixedValue({ add: 2 }));
  p.connect("add_one.result", "branch_joiner");
  p.connect("branch_joiner.value", "below_10.value");
  p.connect("below_10.below", "accumulator.value");
  p.connect("accumulator.value", "below_5.value");
  p.connect("below_5.above", "add_three.value");
  p.connect("below_5.below", "branch_joiner");
  p.connect("add_three.result", "branch_joiner");
  p.connect("below_10.above", "add_two.value");
  return p;
}
