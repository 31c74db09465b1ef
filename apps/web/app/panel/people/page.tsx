import type { Metadata } from "next";
import { PeopleScreen } from "~/panel/people/PeopleScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "People" };

export default function PeoplePage() {
  return <PeopleScreen />;
}
