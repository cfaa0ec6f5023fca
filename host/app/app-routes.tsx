import { createRoutesFromElements, Route, type RouteObject } from 'react-router-dom';
import {
  LOCATIONS_PAGE_PATH,
  PLACEMENTS_PAGE_PATH,
  RELEASES_PAGE_PATH,
  SERVICE_STATUS_PATH,
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
  SLOT_INSPECTOR_PATH,
} from '../../shared';
import { Layout } from '../layout/layout';
import { RequireAuth } from '../layout/require-auth';
import { DashboardPage } from '../pages/dashboard/dashboard-page';
import { NotFoundPage } from '../pages/errors/not-found-page';
import { PageErrorPage } from '../pages/errors/page-error-page';
import { RecordCreatePage } from '../pages/records/record-create-page';
import { RecordEditPage } from '../pages/records/record-edit-page';
import { RecordViewPage } from '../pages/records/record-view-page';
import { ResourceListPage } from '../pages/records/resource-list-page';
import { ServiceStatusPage } from '../pages/errors/service-status-page';
import { SignInPage } from '../pages/sign-in/sign-in-page';

/**
 * The client routes: the sign-in and sign-out pages, the service status, the dashboard, a resource's list, its New page, its
 * Recently deleted page, record view and record edit pages, the slot inspector, and the operators' releases page.
 * The tool pages (the slot inspector, the location catalogue, the operators' releases and placements pages) are each a chunk of their own, loaded when
 * opened: most staff never open them, so they are budgeted on their own rather than in what every page costs
 * (build/bundle-budgets.ts, TOOL_PAGE_CHUNK_PREFIX). So is a resource's Recently deleted page, opened only to undo a
 * delete whose notice is gone.
 * A page that fails (a tool page's file missing after a new version was deployed, a render error) shows
 * PageErrorPage inside the layout instead of taking the admin down.
 * The server answers each with index.html. A route table rather than `<Routes>`, because only a data router
 * (createBrowserRouter) can hold a navigation back while a form has unsaved changes.
 */
export const APP_ROUTES: RouteObject[] = createRoutesFromElements(
  // Opened by its address, a page of a chunk of its own renders once that chunk is there: until then, the boot status
  // of index.html again, not a blank page (and React Router has a fallback to render, so it warns of nothing).
  <Route
    element={<Layout />}
    errorElement={<PageErrorPage />}
    hydrateFallbackElement={
      <p className="boot" role="status">
        Loading the admin…
      </p>
    }
  >
    {/* A page that fails to load or render shows its error inside the layout; the layout's own goes to the root. */}
    <Route errorElement={<PageErrorPage />}>
      <Route path={SIGN_IN_PATH} element={<SignInPage />} />
      <Route path={SERVICE_STATUS_PATH} element={<ServiceStatusPage />} />
      {/* Opened by address only, now and then: a chunk of its own, as the tool pages are. */}
      <Route
        path={SIGN_OUT_PATH}
        lazy={async () => ({
          Component: (await import(/* webpackChunkName: "tool-page-sign-out" */ '../pages/sign-in/sign-out-page'))
            .SignOutPage,
        })}
      />
      <Route element={<RequireAuth />}>
        <Route index element={<DashboardPage />} />
        <Route path="/resources/:resource" element={<ResourceListPage />} />
        <Route path="/resources/:resource/new" element={<RecordCreatePage />} />
        {/* A static segment: ranked before `:id`, which it would otherwise be read as. Opened now and then, when a
            delete is to be undone after its notice is gone: a chunk of its own, as the tool pages are. */}
        <Route
          path="/resources/:resource/deleted"
          lazy={async () => ({
            Component: (
              await import(/* webpackChunkName: "tool-page-recently-deleted" */ '../pages/records/deleted-records-page')
            ).DeletedRecordsPage,
          })}
        />
        <Route path="/resources/:resource/:id" element={<RecordViewPage />} />
        <Route path="/resources/:resource/:id/edit" element={<RecordEditPage />} />
        <Route
          path={SLOT_INSPECTOR_PATH}
          lazy={async () => ({
            Component: (
              await import(/* webpackChunkName: "tool-page-slot-inspector" */ '../pages/inspector/slot-inspector-page')
            ).SlotInspectorPage,
          })}
        />
        <Route
          path={RELEASES_PAGE_PATH}
          lazy={async () => ({
            Component: (await import(/* webpackChunkName: "tool-page-releases" */ '../pages/releases/releases-page'))
              .ReleasesPage,
          })}
        />
        <Route
          path={PLACEMENTS_PAGE_PATH}
          lazy={async () => ({
            Component: (
              await import(/* webpackChunkName: "tool-page-placements" */ '../pages/placements/placements-page')
            ).PlacementsPage,
          })}
        />
        <Route
          path={LOCATIONS_PAGE_PATH}
          lazy={async () => ({
            Component: (await import(/* webpackChunkName: "tool-page-locations" */ '../pages/inspector/locations-page'))
              .LocationsPage,
          })}
        />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  </Route>,
);
