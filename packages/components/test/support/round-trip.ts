import { type AnyComponent, deserializeComponent, serializeComponent } from "@junction/core";

/**
 * Serializes a component with core's `serializeComponent` (registry lookup by `type`, the definition's
 * serializer, JSON checks), passes the document through JSON text, and loads it back with
 * `deserializeComponent`.
 */
export function roundTrip(component: AnyComponent): {
  initParameters: Record<string, unknown>;
  copy: AnyComponent;
} {
  const document = JSON.parse(JSON.stringify(serializeComponent(component))) as {
    type: string;
    init_parameters: Record<string, unknown>;
  };
  if (document.type !== component.type) throw new Error(`serialized as "${document.type}"`);
  return { initParameters: document.init_parameters, copy: deserializeComponent(document) };
}
