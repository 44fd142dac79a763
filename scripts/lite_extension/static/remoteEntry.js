// hookcourse's JupyterLite plugin, a federated extension written by hand (it needs no
// shared modules, so no bundler): JupyterLite's contents layer stores a *.json file it
// serves as parsed JSON and hands the kernel JSON.stringify of it, one compact line, not
// the file's bytes. Before any kernel starts, each course JSON file the learner has not
// changed is saved in the browser's storage as the exact text the site serves, in the
// "text" format, which the kernel and the editor both read unchanged (and a kernel
// writing the file keeps that format). And a link naming a notebook opens it alone.
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

  // The saved layout's entries that reopen a document: WidgetTracker keeps each open
  // notebook (or file, or console) as "<namespace>:<path>" with its open arguments.
  function reopensSomething(value) {
    return Boolean(value && value.data && typeof value.data.path === "string");
  }

  // A link that names a notebook (`?path=`, the site's root page included) opens that
  // notebook alone: JupyterLab would first restore every tab of the last visit, each
  // starting a Pyodide kernel of its own. The saved layout loses its tabs before the
  // layout restorer reads it (plugins activate before the first route); the files, and
  // the learner's changes to them, stay in the browser's storage.
  async function forgetOpenTabs(workspaces) {
    const { ids, values } = await workspaces.list();
    for (let index = 0; index < ids.length; index++) {
      const data = Object.assign({}, values[index].data);
      const reopening = Object.keys(data).filter((key) => reopensSomething(data[key]));
      if (reopening.length === 0 && !("layout-restorer:data" in data)) {
        continue;
      }
      for (const key of reopening) {
        delete data[key];
      }
      delete data["layout-restorer:data"];
      await workspaces.save(ids[index], { data, metadata: values[index].metadata });
    }
  }

  const exactJsonFiles = {
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

  const linkOpensWhatItNames = {
    id: "hookcourse-lite:link-opens-what-it-names",
    description: "A ?path= link opens that notebook alone, not the last visit's tabs too.",
    autoStart: true,
    activate: async function (app) {
      if (!new URLSearchParams(window.location.search).has("path")) {
        return; // lab/index.html alone: the learner's tabs come back, as JupyterLab does
      }
      try {
        await forgetOpenTabs(app.serviceManager.workspaces);
      } catch (error) {
        console.warn("hookcourse-lite: could not forget the last visit's tabs:", error);
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
        return { __esModule: true, default: [exactJsonFiles, linkOpensWhatItNames] };
      });
    },
  };
})();
