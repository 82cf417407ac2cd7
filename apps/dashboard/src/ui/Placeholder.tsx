import { PageHeader } from "./PageHeader";
import { Empty } from "./states";

/** Stand-in for a screen not built yet; replace the screen file's body. */
export function Placeholder({ title, description }: { title: string; description: string }) {
  return (
    <div className="page">
      <PageHeader title={title} description={description} />
      <Empty title="Coming soon">This screen is being built.</Empty>
    </div>
  );
}
