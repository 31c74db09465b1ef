"use client";
// The 404 page of an existing help centre, in its own frame (header with name, logo and search).

import { helpPaths } from "@parley/core/browser";
import { useHelpBrand } from "./HelpBrandContext.tsx";
import { HelpFrame } from "./HelpFrame.tsx";
import { NotFoundContent } from "./NotFoundContent.tsx";

export function BrandedNotFound() {
  const brand = useHelpBrand();
  if (!brand) return <NotFoundContent homeHref="/" homeLabel="Go to the home page" />;
  return (
    <HelpFrame brand={brand} headerSearch mainClassName="help-not-found">
      <NotFoundContent homeHref={helpPaths.home(brand.agentId)} homeLabel={`Go to ${brand.name}`} />
    </HelpFrame>
  );
}
