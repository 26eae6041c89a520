/**
 * The run screen's dialogs and manual traces in Chromium against the real server: the MCP servers dialog
 * against a real local MCP server (validate, choose tools, the job config that follows), the Presets dialog
 * (save, rename inline, apply, delete with the in-app confirmation) and a run answered from uploaded manual
 * traces.
 */
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { drugBenchmark } from "../../karenina/src/test-support/cli.js";
import { describeInBrowser } from "./__fixtures__/browser.js";
import {
  addBioMcpServer,
  bioMcpServer,
  card,
  jobEnd,
  loadWorkingBenchmark,
  noSeriousViolations,
  runAndCapture,
  runScreenSuite,
  scriptedModel,
  scriptedPair,
} from "./__fixtures__/run-screen.js";

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

describeInBrowser("run screen dialogs", () => {
  const benchmark = drugBenchmark(2, "dialogs-e2e");
  const suite = runScreenSuite("run-dialogs", benchmark);

  test("MCP: add a server, Validate lists its tools, keep some, save; the job config holds them", async () => {
    const { app, llm, startMcp } = suite;
    const { page } = app;
    const tools = ["lookup_gene", "lookup_drug", "search_papers"];
    const url = await startMcp(() =>
      bioMcpServer(Object.fromEntries(tools.map((name) => [name, `Tool ${name}`]))),
    );
    await loadWorkingBenchmark(app, "dialogs-e2e");
    await scriptedPair(page, llm.baseURL);

    const dialog = await addBioMcpServer(page, url);
    await dialog.getByText("3 tools").waitFor();
    await dialog.getByText("3 of 3 selected").waitFor();
    await dialog.getByRole("checkbox", { name: "search_papers" }).uncheck();
    await dialog.getByText("2 of 3 selected").waitFor();
    await app.screenshot("run-mcp-dialog");
    await noSeriousViolations(app);
    await dialog.getByRole("button", { name: "Save Configuration" }).click();
    await card(page, "Answering model 1").getByRole("button", { name: "Configure MCP (1)" }).waitFor();

    await page.getByRole("checkbox", { name: "Select all visible questions" }).check();
    const { config, jobId } = await runAndCapture(page);
    const [answering] = config.answering_models as Record<string, unknown>[];
    expect(answering?.mcp_urls_dict).toEqual({ bio: url });
    expect(answering?.mcp_tool_filter).toEqual(["lookup_gene", "lookup_drug"]);
    expect(await jobEnd(app, jobId)).toBe("completed");
  });

  test("Presets: save, rename inline (Enter saves, Escape cancels), apply over changed settings, delete after confirming", async () => {
    const { app, llm } = suite;
    const { page } = app;
    await loadWorkingBenchmark(app, "dialogs-e2e");
    const answering = card(page, "Answering model 1");
    // the MCP servers of the test before are not part of this one
    await answering.getByRole("button", { name: /^Configure MCP/ }).click();
    const mcp = page.getByRole("dialog", { name: "Configure MCP" });
    if (await mcp.getByRole("button", { name: "Remove server" }).count()) {
      await mcp.getByRole("button", { name: "Remove server" }).click();
      await mcp.getByRole("button", { name: "Save Configuration" }).click();
    } else await mcp.getByRole("button", { name: "Cancel" }).click();
    await scriptedPair(page, llm.baseURL);

    await page.getByRole("button", { name: "Manage Presets" }).click();
    let dialog = page.getByRole("dialog", { name: "Manage Presets" });
    await dialog.getByText("No presets saved yet.").waitFor();
    await dialog.getByLabel("Preset name").fill("Scripted pair");
    await dialog.getByLabel("Preset description").fill("answerer judged by judge");
    await dialog.getByRole("button", { name: "Save Preset" }).click();
    await dialog.getByRole("button", { name: "Apply Scripted pair" }).waitFor();

    await dialog.getByRole("button", { name: "Scripted pair (edit name)" }).click();
    await dialog.getByLabel("Name", { exact: true }).fill("Thrown away");
    await dialog.getByLabel("Name", { exact: true }).press("Escape");
    expect(await dialog.isVisible()).toBe(true); // Escape left the field, not the dialog
    await dialog.getByRole("button", { name: "Scripted pair (edit name)" }).waitFor();
    expect(await dialog.getByText("Thrown away").count()).toBe(0);

    await dialog.getByRole("button", { name: "Scripted pair (edit name)" }).click();
    await dialog.getByLabel("Name", { exact: true }).fill("Renamed pair");
    await dialog.getByLabel("Name", { exact: true }).press("Enter");
    await dialog.getByRole("button", { name: "Apply Renamed pair" }).waitFor();
    await app.screenshot("run-presets-dialog");
    await noSeriousViolations(app);
    await dialog.getByRole("button", { name: "Close manage presets" }).click();

    await answering.getByLabel("Model name").fill("something-else");
    await answering.getByLabel("Endpoint URL").fill("http://127.0.0.1:1/v1");
    await page.getByRole("button", { name: "Add Answering Model" }).click();
    await card(page, "Answering model 2").waitFor();

    await page.getByRole("button", { name: "Manage Presets" }).click();
    dialog = page.getByRole("dialog", { name: "Manage Presets" });
    await dialog.getByRole("button", { name: "Apply Renamed pair" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await answering.getByLabel("Model name").inputValue()).toBe("answerer");
    expect(await answering.getByLabel("Endpoint URL").inputValue()).toBe(llm.baseURL);
    expect(await card(page, "Answering model 2").count()).toBe(0);
    expect(await card(page, "Parsing model 1").getByLabel("Model name").inputValue()).toBe("judge");

    await page.getByRole("button", { name: "Manage Presets" }).click();
    dialog = page.getByRole("dialog", { name: "Manage Presets" });
    await dialog.getByRole("button", { name: "Delete Renamed pair" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete preset" });
    await confirm.getByText("Delete the preset “Renamed pair”?").waitFor();
    await noSeriousViolations(app);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await dialog.getByRole("button", { name: "Apply Renamed pair" }).waitFor();
    await dialog.getByRole("button", { name: "Delete Renamed pair" }).click();
    await confirm.getByRole("button", { name: "Delete", exact: true }).click();
    await dialog.getByText("No presets saved yet.").waitFor();
    const stored = await fetch(`${app.url}/api/v2/presets`, {
      headers: { authorization: `Bearer ${app.server.token}` },
    });
    expect(((await stored.json()) as { items: unknown[] }).items).toEqual([]);
    await dialog.getByRole("button", { name: "Close manage presets" }).click();
  });

  test("manual traces: an uploaded md5 → trace file answers the run; the results hold those traces", async () => {
    const { app, llm, folder } = suite;
    const { page } = app;
    await loadWorkingBenchmark(app, "dialogs-e2e");
    const traces = Object.fromEntries(
      benchmark.slice().map((question, i) => [md5(question.text), `Venetoclax, from manual trace ${i}.`]),
    );
    const file = join(folder, "traces.json");
    await writeFile(file, JSON.stringify(traces));
    const answering = card(page, "Answering model 1");
    await answering.getByRole("radio", { name: "manual", exact: true }).check();
    await answering.getByLabel("Manual traces (JSON)").setInputFiles(file);
    await answering.getByText("Loaded traces.json: 2 traces").waitFor();
    await scriptedModel(page, "Parsing model 1", "judge", llm.baseURL);
    await page.getByRole("checkbox", { name: "Select all visible questions" }).check();
    const { config, jobId } = await runAndCapture(page);
    expect((config.answering_models as Record<string, unknown>[])[0]).toMatchObject({
      interface: "manual",
      manual_traces: traces,
    });
    expect(await jobEnd(app, jobId)).toBe("completed");
    await page.getByText("Verification completed: 2 of 2 done").waitFor();
    const results = (await (
      await fetch(`${app.url}/api/v2/verifications/${jobId}/results`, {
        headers: { authorization: `Bearer ${app.server.token}` },
      })
    ).json()) as { items: { template: { raw_llm_response: string } }[] };
    const answers = results.items.map((row) => row.template.raw_llm_response).sort();
    expect(answers).toEqual(Object.values(traces).sort());
    expect(app.errors.filter((error) => !error.includes("Failed to load resource"))).toEqual([]);
  });
});
