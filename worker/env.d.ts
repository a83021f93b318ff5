/** PRODUCT, baked in by vite define. */
declare const __PRODUCT__: string;
