// The entry point of the repository's own Pulumi stack (Pulumi.yaml `main:`). Pulumi calls an
// exported function and turns what it returns into the stack outputs.
import { runExamples } from "./program";

export = runExamples;
