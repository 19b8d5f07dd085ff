import {
  AddFixedValue,
  Double,
  Parity,
  Remainder,
  Repeat,
  Subtract,
  Sum,
} from "./components/sample-numbers.js";
import { anyOrder, type Scenario } from "./harness.js";

/** Numeric branches that merge or not, and variadic sums over branches of different lengths. */

export const branchScenarios: Scenario[] = [
  {
    name: "that has two branches that don't merge",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("add_one", new AddFixedValue({ add: 1 }));
      p.addComponent("parity", new Parity());
      p.addComponent("add_ten", new AddFixedValue({ add: 10 }));
      p.addComponent("double", new Double());
      p.addComponent("add_three", new AddFixedValue({ add: 3 }));
      p.connect("add_one.result", "parity.value");
      p.connect("parity.even", "add_ten.value");
      p.connect("parity.odd", "double.value");
      p.connect("add_ten.result", "add_three.value");
      return p;
    },
    runs: [
      {
        inputs: { add_one: { value: 1 } },
        expectedOutputs: { add_three: { result: 15 } },
        expectedComponentCalls: {
          "add_one#1": { add: undefined, value: 1 },
          "add_ten#1": { add: undefined, value: 2 },
          "add_three#1": { add: undefined, value: 12 },
          "parity#1": { value: 2 },
        },
      },
      {
        inputs: { add_one: { value: 2 } },
        expectedOutputs: { double: { value: 6 } },
        expectedComponentCalls: {
          "add_one#1": { add: undefined, value: 2 },
          "double#1": { value: 3 },
          "parity#1": { value: 3 },
        },
      },
    ],
  },
  {
    name: "that has three branches that don't merge",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("add_one", new AddFixedValue({ add: 1 }));
      p.addComponent("repeat", new Repeat({ outputs: ["first", "second"] }));
      p.addComponent("add_ten", new AddFixedValue({ add: 10 }));
      p.addComponent("double", new Double());
      p.addComponent("add_three", new AddFixedValue({ add: 3 }));
      p.addComponent("add_one_again", new AddFixedValue({ add: 1 }));
      p.connect("add_one.result", "repeat.value");
      p.connect("repeat.first", "add_ten.value");
      p.connect("repeat.second", "double.value");
      p.connect("repeat.second", "add_three.value");
      p.connect("add_three.result", "add_one_again.value");
      return p;
    },
    runs: [
      {
        inputs: { add_one: { value: 1 } },
        expectedOutputs: { add_one_again: { result: 6 }, add_ten: { result: 12 }, double: { value: 4 } },
        expectedComponentCalls: {
          "add_one#1": { add: undefined, value: 1 },
          "add_one_again#1": { add: undefined, value: 5 },
          "add_ten#1": { add: undefined, value: 2 },
          "add_three#1": { add: undefined, value: 2 },
          "double#1": { value: 2 },
          "repeat#1": { value: 2 },
        },
      },
    ],
  },
  {
    name: "that has two branches that merge",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("first_addition", new AddFixedValue({ add: 2 }));
      p.addComponent("second_addition", new AddFixedValue({ add: 2 }));
      p.addComponent("third_addition", new AddFixedValue({ add: 2 }));
      p.addComponent("diff", new Subtract());
      p.addComponent("fourth_addition", new AddFixedValue({ add: 1 }));
      p.connect("first_addition.result", "second_addition.value");
      p.connect("second_addition.result", "diff.first_value");
      p.connect("third_addition.result", "diff.second_value");
      p.connect("diff", "fourth_addition.value");
      return p;
    },
    runs: [
      {
        inputs: { first_addition: { value: 1 }, third_addition: { value: 1 } },
        expectedOutputs: { fourth_addition: { result: 3 } },
        expectedComponentCalls: {
          "diff#1": { first_value: 5, second_value: 3 },
          "first_addition#1": { add: undefined, value: 1 },
          "fourth_addition#1": { add: undefined, value: 2 },
          "second_addition#1": { add: undefined, value: 3 },
          "third_addition#1": { add: undefined, value: 1 },
        },
      },
    ],
  },
  {
    name: "that has different combinations of branches that merge and do not merge",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("add_one", new AddFixedValue());
      p.addComponent("parity", new Parity());
      p.addComponent("add_ten", new AddFixedValue({ add: 10 }));
      p.addComponent("double", new Double());
      p.addComponent("add_four", new AddFixedValue({ add: 4 }));
      p.addComponent("add_two", new AddFixedValue());
      p.addComponent("add_two_as_well", new AddFixedValue());
      p.addComponent("diff", new Subtract());
      p.connect("add_one.result", "parity.value");
      p.connect("parity.even", "add_four.value");
      p.connect("parity.odd", "double.value");
      p.connect("add_ten.result", "diff.first_value");
      p.connect("double.value", "diff.second_value");
      p.connect("parity.odd", "add_ten.value");
      p.connect("add_four.result", "add_two.value");
      p.connect("add_four.result", "add_two_as_well.value");
      return p;
    },
    runs: [
      {
        inputs: { add_one: { value: 1 }, add_two: { add: 2 }, add_two_as_well: { add: 2 } },
        expectedOutputs: { add_two: { result: 8 }, add_two_as_well: { result: 8 } },
        expectedComponentCalls: {
          "add_four#1": { add: undefined, value: 2 },
          "add_one#1": { add: undefined, value: 1 },
          "add_two#1": { add: 2, value: 6 },
          "add_two_as_well#1": { add: 2, value: 6 },
          "parity#1": { value: 2 },
        },
      },
      {
        inputs: { add_one: { value: 2 }, add_two: { add: 2 }, add_two_as_well: { add: 2 } },
        expectedOutputs: { diff: { difference: 7 } },
        expectedComponentCalls: {
          "add_one#1": { add: undefined, value: 2 },
          "add_ten#1": { add: undefined, value: 3 },
          "diff#1": { first_value: 13, second_value: 6 },
          "double#1": { value: 3 },
          "parity#1": { value: 3 },
        },
      },
    ],
  },
  {
    name: "that has multiple branches that merge into a component with a single variadic input",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("add_one", new AddFixedValue());
      p.addComponent("parity", new Remainder({ divisor: 2 }));
      p.addComponent("add_ten", new AddFixedValue({ add: 10 }));
      p.addComponent("double", new Double());
      p.addComponent("add_four", new AddFixedValue({ add: 4 }));
      p.addComponent("add_one_again", new AddFixedValue());
      p.addComponent("sum", new Sum());
      p.connect("add_one.result", "parity.value");
      p.connect("parity.remainder_is_0", "add_ten.value");
      p.connect("parity.remainder_is_1", "double.value");
      p.connect("add_one.result", "sum.values");
      p.connect("add_ten.result", "sum.values");
      p.connect("double.value", "sum.values");
      p.connect("parity.remainder_is_1", "add_four.value");
      p.connect("add_four.result", "add_one_again.value");
      p.connect("add_one_again.result", "sum.values");
      return p;
    },
    runs: [
      {
        inputs: { add_one: { value: 1 } },
        expectedOutputs: { sum: { total: 14 } },
        expectedComponentCalls: {
          "add_one#1": { add: undefined, value: 1 },
          "add_ten#1": { add: undefined, value: 2 },
          "parity#1": { value: 2 },
          "sum#1": { values: [2, 12] },
        },
      },
      {
        inputs: { add_one: { value: 2 } },
        expectedOutputs: { sum: { total: 17 } },
        expectedComponentCalls: {
          "add_four#1": { add: undefined, value: 3 },
          "add_one#1": { add: undefined, value: 2 },
          "add_one_again#1": { add: undefined, value: 7 },
          "double#1": { value: 3 },
          "parity#1": { value: 3 },
          "sum#1": { values: [3, 6, 8] },
        },
      },
    ],
  },
  {
    name: "that has multiple branches of different lengths that merge into a component with a single variadic input",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("first_addition", new AddFixedValue({ add: 2 }));
      p.addComponent("second_addition", new AddFixedValue({ add: 2 }));
      p.addComponent("third_addition", new AddFixedValue({ add: 2 }));
      p.addComponent("sum", new Sum());
      p.addComponent("fourth_addition", new AddFixedValue({ add: 1 }));
      p.connect("first_addition.result", "second_addition.value");
      p.connect("first_addition.result", "sum.values");
      p.connect("second_addition.result", "sum.values");
      p.connect("third_addition.result", "sum.values");
      p.connect("sum.total", "fourth_addition.value");
      return p;
    },
    runs: [
      {
        inputs: { first_addition: { value: 1 }, third_addition: { value: 1 } },
        expectedOutputs: { fourth_addition: { result: 12 } },
        expectedComponentCalls: {
          "first_addition#1": { add: undefined, value: 1 },
          "fourth_addition#1": { add: undefined, value: 11 },
          "second_addition#1": { add: undefined, value: 3 },
          "sum#1": { values: anyOrder([3, 3, 5]) },
          "third_addition#1": { add: undefined, value: 1 },
        },
      },
    ],
  },
];
