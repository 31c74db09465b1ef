"use client";
// The help centre's brand for the 404 page: Next.js gives a not-found page no params, so the
// agent's layout hands the brand down here.

import type { HelpBrand } from "@parley/core/browser";
import { createContext, type ReactNode, useContext } from "react";

const BrandContext = createContext<HelpBrand | null>(null);

export function HelpBrandProvider(props: { brand: HelpBrand; children: ReactNode }) {
  return <BrandContext.Provider value={props.brand}>{props.children}</BrandContext.Provider>;
}

export function useHelpBrand(): HelpBrand | null {
  return useContext(BrandContext);
}
