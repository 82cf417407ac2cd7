import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { ApiError, setUnauthorizedHandler } from "./api/client";
import { makeRouter } from "./router";
import "./styles.css";
import "./flows.css";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A 4xx will not change by asking again; network trouble and 5xx get two more tries.
      retry: (count, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
    mutations: { retry: false },
  },
});

const router = makeRouter(queryClient);

// A 401 from any call: forget cached data and go to sign in, coming back here afterwards.
setUnauthorizedHandler((next) => {
  queryClient.clear();
  void router.navigate({ to: "/sign-in", search: { next } });
});

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
createRoot(root, {
  // An ApiError caught by a route's error screen is already shown to the user; only log the rest.
  onCaughtError: (error, info) => {
    if (error instanceof ApiError) return;
    console.error(error, info.componentStack);
  },
}).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
