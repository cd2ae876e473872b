/** Spec texts of the bundled fixture apps, shared by the end-to-end tests. */

/**
 * The calculator with its `add` goal (and `multiply` when asked), both in the rules grammar.
 * With `variant`, the app opens with the query in `$VARIANT` (empty: the base app); `launch`
 * replaces the whole launch command.
 */
export function calculatorSpec(
  options: { readonly variant?: boolean; readonly multiply?: boolean; readonly launch?: string } = {},
): string {
  const query = options.variant ? ' "${env.VARIANT}"' : '';
  const multiply = options.multiply
    ? `  - id: multiply
    goal: click "1", click "2", click "*", click "7", click "="
    expect:
      - text: "84"
      - absent: "Error"
`
    : '';
  return `name: Calculator
app:
  launch: ${options.launch ?? `\${env.FIXTURES}/open calculator${query}`}
  window: Retrace Calculator
goals:
  - id: add
    goal: click "7", click "+", click "8", click "="
    expect:
      - text: "15"
${multiply}`;
}

/** The notes app with a hand-written `save` goal that types `note`. */
export const notesSpec = (note: string): string => `name: Notes
app:
  launch: \${env.FIXTURES}/open notes
  window: Retrace Notes
goals:
  - id: save
    steps:
      - click: { text: "New" }
      - type: "${note}"
      - click: { text: "Save" }
    expect:
      - text: "Saved"
`;
