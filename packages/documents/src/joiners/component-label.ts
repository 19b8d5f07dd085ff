/**
 * How a component names itself in messages: `DocumentJoiner "joiner"` inside a pipeline, the bare
 * class name when run directly.
 *
 * @param className - e.g. `"DocumentJoiner"`
 * @param componentName - the component's name in its pipeline, if any
 */
export function componentLabel(className: string, componentName: string | undefined): string {
  return componentName === undefined ? className : `${className} "${componentName}"`;
}
