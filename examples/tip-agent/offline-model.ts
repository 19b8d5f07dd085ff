/**
 * The offline stand-in for a real model: a deterministic function of the conversation that plays the
 * same conversation a tool-calling model would — search first, then calculate, then answer from the
 * tool results it actually received. It understands tip questions ("...tip for an €85 meal in France");
 * anything else gets an honest "I only know tip questions" answer. In a conversation with memory it
 * reads only the current turn's tool results, and a follow-up that names just a country ("And in
 * Japan?") takes the amount from an earlier question or a summary of them.
 */
import type { ChatMessage, ScriptedReply } from "@junction/llm";
import { facts } from "./knowledge-base.js";

const countries = [...new Set(facts.map((fact) => fact.country))];
const aliases: Record<string, string> = { usa: "United States", us: "United States", uk: "United Kingdom" };

function findCountry(question: string): string | undefined {
  const lower = question.toLowerCase();
  const named = countries.find((country) => lower.includes(country.toLowerCase()));
  if (named !== undefined) return named;
  const alias = Object.keys(aliases).find((key) => new RegExp(`\\b${key}\\b`).test(lower));
  return alias === undefined ? undefined : aliases[alias];
}

function findAmount(question: string): { amount: number; currency: string } | undefined {
  const match = /([€$£¥])\s?(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s?(€|euros?|dollars?|\$)/i.exec(question);
  if (match === null) return undefined;
  const amount = Number(match[2] ?? match[3]);
  const symbol = (match[1] ?? match[4] ?? "€").toLowerCase();
  return { amount, currency: symbol.startsWith("e") ? "€" : symbol.startsWith("d") ? "$" : symbol };
}

/** A rough token count (4 characters a token) so the demo can show usage accounting offline. */
function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function usageFor(messages: readonly ChatMessage[], reply: string) {
  const prompt = messages.reduce((sum, message) => sum + estimateTokens(JSON.stringify(message.toJSON())), 0);
  const completion = estimateTokens(reply);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function money(value: number, currency: string): string {
  return `${currency}${value.toFixed(2)}`;
}

/**
 * Chooses the next reply from the conversation so far.
 * @param messages - the conversation (system, user, assistant and tool messages)
 */
export function offlineTipModel(messages: readonly ChatMessage[]): ScriptedReply {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const question = messages[lastUser]?.text ?? "";
  const country = findCountry(question);
  // A follow-up without an amount: the newest earlier question (or summary) that has one.
  const earlier = messages
    .slice(0, Math.max(lastUser, 0))
    .filter((message) => message.role === "user" || message.role === "system")
    .reverse();
  const price =
    findAmount(question) ??
    earlier.map((message) => findAmount(message.text ?? "")).find((found) => found !== undefined);
  // Only this turn's tool results (earlier turns' are in the history too).
  const results = messages
    .slice(lastUser + 1)
    .filter((message) => message.role === "tool")
    .map((message) => message.toolCallResult);
  const searchResult = results.find((result) => result?.origin.toolName === "search");
  const calculations = results.filter((result) => result?.origin.toolName === "calculator");

  if (country === undefined || price === undefined) {
    const text =
      "I am the offline scripted model and only know tip questions such as " +
      '"Calculate the appropriate tip for an €85 meal in France". Set OPENAI_API_KEY or OPENAI_BASE_URL to use a real model.';
    return { text, usage: usageFor(messages, text) };
  }
  if (searchResult === undefined) {
    const query = `${country} tipping customs`;
    return { toolCalls: [{ toolName: "search", arguments: { query } }], usage: usageFor(messages, query) };
  }
  const facts = String(searchResult.result);
  // The search returns the best facts, one a line; use the one about this country's tipping.
  const lines = facts.split("\n");
  const countryFact =
    lines.find((line) => line.startsWith(country) && /tip/i.test(line)) ?? lines[0] ?? facts;
  const range = /(\d+)-(\d+)%/.exec(countryFact);
  if (calculations.length === 0 && range !== null) {
    const expressions = [`${price.amount} * ${range[1]}%`, `${price.amount} * ${range[2]}%`];
    return {
      toolCalls: expressions.map((expression) => ({ toolName: "calculator", arguments: { expression } })),
      usage: usageFor(messages, expressions.join(" ")),
    };
  }
  const amounts = calculations
    .filter((result) => result !== undefined && !result.error)
    .map((result) => (JSON.parse(String(result?.result)) as { result: number }).result);
  const firstFact = countryFact;
  const place = country.startsWith("United ") ? `the ${country}` : country;
  const text =
    amounts.length === 2 && range !== null
      ? `${firstFact}\n\nFor a ${money(price.amount, price.currency)} meal in ${place}, an appropriate tip is ${range[1]}-${range[2]}%: ` +
        `${money(amounts[0]!, price.currency)} to ${money(amounts[1]!, price.currency)}.`
      : `${firstFact}\n\nI could not compute a percentage for ${place}; the customs above apply to your ${money(price.amount, price.currency)} meal.`;
  return { text, usage: usageFor(messages, text) };
}
