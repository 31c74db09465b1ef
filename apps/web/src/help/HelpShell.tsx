// A help page: the frame in the help centre's look and the chat widget. Server component; works
// without JavaScript.

import type { HelpBrand } from "@parley/core/help";
import type { ReactNode } from "react";
import { HelpFrame } from "./HelpFrame.tsx";
import { HelpWidget } from "./HelpWidget.tsx";

export function HelpShell(props: { brand: HelpBrand; headerSearch?: boolean; query?: string; children: ReactNode }) {
  return (
    <>
      <HelpFrame brand={props.brand} headerSearch={props.headerSearch} query={props.query}>
        {props.children}
      </HelpFrame>
      <HelpWidget agentId={props.brand.agentId} />
    </>
  );
}
