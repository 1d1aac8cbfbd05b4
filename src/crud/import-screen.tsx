// An import screen of the manifest (a route with screen "import", such as /machine/import): the entity's
// import wizard as a page of its own, the same one its list's toolbar opens in a dialog; its way back is
// the entity's list.
import { useNavigate } from "react-router";
import { EntityImport } from "../extensions/import/entity-import.tsx";
import { useScreen } from "./resource.ts";

export function ImportScreen({ resource: identifier }: { resource: string }) {
  const screen = useScreen(identifier);
  const navigate = useNavigate();
  return <EntityImport view={screen.view} onBack={() => navigate(screen.listPath)} />;
}
