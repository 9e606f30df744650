// Placeholder: the report panels (sources, pages, locations, devices, goals, properties, funnels)
// are built in the panels work of issue 13. They read the view through useDashboard().
export function Reports() {
  return <section aria-label="Reports" />;
}
