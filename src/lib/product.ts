/**
 * How the product name reads in text. `{product}` in routes and keys stays as configured
 * (e.g. `/ask-needl/full`); in titles the spec writes it as a name ("{product} Web",
 * "Ask{product}"), so it is shown with a capital first letter: "Needl Web", "AskNeedl".
 */
export function productLabel(product: string): string {
  return product.charAt(0).toUpperCase() + product.slice(1);
}

/** The assistant's default name, "Ask{product}" (001 §1). */
export function assistantLabel(product: string): string {
  return `Ask${productLabel(product)}`;
}
