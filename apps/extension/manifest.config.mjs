// The extension's manifest, for Chrome (and Chromium browsers) and for Firefox, from one place.
// Permissions are what reading the page you clicked on needs, nothing more: activeTab (the page,
// only when you click the button), scripting (to read it), storage (the pairing). The service is
// reached without a host permission: its /api/extension routes answer any origin (CORS).

const icons = {
  16: "icons/icon-16.png",
  32: "icons/icon-32.png",
  48: "icons/icon-48.png",
  128: "icons/icon-128.png",
};

export function manifest(browser, version) {
  const common = {
    manifest_version: 3,
    name: "Catalog: import products",
    short_name: "Catalog",
    description:
      "Import the product page you are looking at into your Catalog service, with a preview of what it read and what will change.",
    version,
    icons,
    action: {
      default_popup: "popup.html",
      default_title: "Import this page into your catalog",
      default_icon: { 16: icons[16], 32: icons[32] },
    },
    permissions: ["activeTab", "scripting", "storage"],
    commands: {
      _execute_action: {
        suggested_key: { default: "Alt+Shift+C" },
        description: "Import this page into your catalog",
      },
    },
  };
  if (browser === "chrome") {
    return {
      ...common,
      minimum_chrome_version: "116",
      background: { service_worker: "background.js", type: "module" },
    };
  }
  return {
    ...common,
    // Firefox runs MV3 backgrounds as event pages, from `scripts`.
    background: { scripts: ["background.js"], type: "module" },
    browser_specific_settings: {
      gecko: {
        id: "catalog-import@catalog-service.org",
        strict_min_version: "128.0",
        // The page you import is sent to your own Catalog service, nowhere else.
        data_collection_permissions: { required: ["websiteContent"] },
      },
    },
  };
}
