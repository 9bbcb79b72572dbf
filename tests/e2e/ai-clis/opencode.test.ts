// The real opencode CLI (installed by scripts/install-ai-clis.sh) against the scripted model server
// on 127.0.0.1, offline: its manifest, a tool call with its effect on disk, and `ask --via opencode`.
// Skipped with the reason printed when it is not installed. (The steps: tests/helpers/ai-clis.ts.)
import { cliTests, longAnswerTests, widthTests, endTests, turnTests, useAiClis } from "../../helpers/ai-clis.ts";

const ai = useAiClis();
cliTests(ai, "opencode");
turnTests(ai, "opencode");
longAnswerTests(ai, "opencode");
widthTests(ai, "opencode");
endTests(ai, "opencode");
