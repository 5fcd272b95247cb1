/** The solver's Web Worker (placeholder until the board lands). */
export {};
