"""Reports from the store: Markdown (report.md), JSON and CSV exports."""
