// /imports: start an import (web pages, a spreadsheet or file; the extension's captures are
// explained), and the recent imports, so one started earlier can be opened again.
import { useEffect } from "react";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import type { ImportTab } from "../../lib/imports";
import { PageHeader } from "../../ui/PageHeader";
import { Tabs } from "../../ui/Tabs";
import { ExtensionNote } from "./ExtensionNote";
import { FileForm } from "./FileForm";
import { RecentImports } from "./RecentImports";
import { SavedMappings } from "./SavedMappings";
import { UrlForm } from "./UrlForm";

const route = getRouteApi("/app/imports");

export function Imports() {
  // The tab is in the address, so a link can open the file form (e.g. "import it again with a
  // currency").
  const { tab = "urls" } = route.useSearch();
  const navigate = useNavigate({ from: "/imports" });
  const setTab = (next: ImportTab) =>
    void navigate({
      search: (prev) => ({ ...prev, tab: next === "urls" ? undefined : next }),
      replace: true,
    });
  useEffect(() => {
    document.title = "Import · Catalog";
  }, []);

  return (
    <div className="page">
      <PageHeader
        title="Import products"
        description="Every import starts with a preview of what will change. Nothing is stored until you choose to."
      />
      <section className="card section" aria-label="Start an import">
        <Tabs<ImportTab>
          label="What to import"
          active={tab}
          onChange={setTab}
          tabs={[
            { key: "urls", label: "Web pages" },
            {
              key: "file",
              label: (
                <>
                  <span className="tab-long">Spreadsheet or file</span>
                  <span className="tab-short">File</span>
                </>
              ),
            },
            {
              key: "extension",
              label: (
                <>
                  <span className="tab-long">Browser extension</span>
                  <span className="tab-short">Extension</span>
                </>
              ),
            },
          ]}
        >
          {tab === "urls" ? <UrlForm /> : tab === "file" ? <FileForm /> : <ExtensionNote />}
        </Tabs>
      </section>
      {tab === "file" ? <SavedMappings /> : null}
      <RecentImports />
    </div>
  );
}
