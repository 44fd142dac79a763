// hookcourse's JupyterLite plugin, a federated extension written by hand (it needs no
// shared modules, so no bundler): JupyterLite's contents layer stores a *.json file it
// serves as parsed JSON and hands the kernel JSON.stringify of it, one compact line, not
// the file's bytes. Before any kernel starts, each course JSON file the learner has not
// changed is saved in the browser's storage as the exact text the site serves, in the
// "text" format, which the kernel and the editor both read unchanged (and a kernel
// writing the file keeps that format).
(function () {
  "use strict";

  async function serverText(base, path) {
    const file = "files/" + path.split("/").map(encodeURIComponent).join("/");
    const response = await fetch(new URL(file, base));
    return response.ok ? response.text() : null;
  }

  async function keepExact(contents, base, path) {
    const stat = await contents.get(path, { content: false });
    if (stat.format === "text" || stat.format === "base64") {
      return; // already stored as it reads: the learner's own, or done on an earlier visit
    }
    const text = await serverText(base, path);
    if (text === null) {
      return;
    }
    const model = await contents.get(path, { content: true, format: "json" });
    // Only a file the learner has not changed: the same JSON value as the site's.
    if (JSON.stringify(model.content) === JSON.stringify(JSON.parse(text))) {
      await contents.save(path, { type: "file", format: "text", content: text });
    }
  }

  async function walk(contents, base, folder) {
    const listing = await contents.get(folder, { content: true });
    for (const item of listing.content || []) {
      if (item.type === "directory") {
        await walk(contents, base, item.path);
      } else if (item.type === "file" && /\.json$/i.test(item.name)) {
        try {
          await keepExact(contents, base, item.path);
        } catch (error) {
          console.warn("hookcourse-lite: left " + item.path + " as stored:", error);
        }
      }
    }
  }

  const plugin = {
    id: "hookcourse-lite:exact-json-files",
    description: "The kernel reads the course's JSON files byte for byte.",
    autoStart: true,
    activate: async function (app) {
      try {
        const services = app.serviceManager;
        await walk(services.contents, services.serverSettings.baseUrl, "");
      } catch (error) {
        console.warn("hookcourse-lite: could not list the course files:", error);
      }
    },
  };

  const scope = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  scope["hookcourse-lite"] = {
    init: function () {},
    get: function (module) {
      if (module !== "./extension") {
        return Promise.reject(new Error("hookcourse-lite has no module " + module));
      }
      return Promise.resolve(function () {
        return { __esModule: true, default: [plugin] };
      });
    },
  };
})();
