// The stop-word lists of the `stopword` package used here (it ships no types).
declare module "stopword" {
  export const eng: string[];
  export const spa: string[];
  export const fra: string[];
  export const deu: string[];
  export const por: string[];
  export const porBr: string[];
}
