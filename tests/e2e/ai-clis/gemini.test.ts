// The real gemini CLI (installed by scripts/install-ai-clis.sh) against the scripted model server
// on 127.0.0.1, offline: its manifest, a tool call with its effect on disk, and `ask --via gemini`.
// Skipped with the reason printed when it is not installed. (The steps: tests/helpers/ai-clis.ts.)
import { cliTests, longAnswerTests, resizeTests, widthTests, endTests, turnTests, useAiClis } from "../../helpers/ai-clis.ts";

const ai = useAiClis();
cliTests(ai, "gemini");
turnTests(ai, "gemini");
longAnswerTests(ai, "gemini");
resizeTests(ai, "gemini");
widthTests(ai, "gemini");
endTests(ai, "gemini");
