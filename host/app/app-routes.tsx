import { lazy, Suspense } from 'react';
import { createRoutesFromElements, Route, type RouteObject } from 'react-router-dom';
import { RELEASES_PAGE_PATH, SERVICE_STATUS_PATH, SIGN_IN_PATH, SLOT_INSPECTOR_PATH } from '../../shared';
import { Layout } from '../layout/layout';
import { RequireAuth } from '../layout/require-auth';
import { DashboardPage } from '../pages/dashboard-page';
import { NotFoundPage } from '../pages/not-found-page';
import { PageStatus } from '../pages/page-status';
import { RecordEditPage } from '../pages/record-edit-page';
import { RecordViewPage } from '../pages/record-view-page';
import { ResourceListPage } from '../pages/resource-list-page';
import { ServiceStatusPage } from '../pages/service-status-page';
import { SignInPage } from '../pages/sign-in-page';
import { SlotInspectorPage } from '../pages/slot-inspector-page';

/** The operators' page, in its own chunk: most staff never open it, so no page load waits for it. */
const ReleasesPage = lazy(() =>
  import(/* webpackChunkName: "releases-page" */ '../pages/releases-page').then(({ ReleasesPage }) => ({
    default: ReleasesPage,
  })),
);

/**
 * The client routes: the sign-in page, the service status, the dashboard, a resource's list, record view and record
 * edit pages, the slot inspector, and the operators' releases page.
 * The server answers each with index.html. A route table rather than `<Routes>`, because only a data router
 * (createBrowserRouter) can hold a navigation back while a form has unsaved changes.
 */
export const APP_ROUTES: RouteObject[] = createRoutesFromElements(
  <Route element={<Layout />}>
    <Route path={SIGN_IN_PATH} element={<SignInPage />} />
    <Route path={SERVICE_STATUS_PATH} element={<ServiceStatusPage />} />
    <Route element={<RequireAuth />}>
      <Route index element={<DashboardPage />} />
      <Route path="/resources/:resource" element={<ResourceListPage />} />
      <Route path="/resources/:resource/:id" element={<RecordViewPage />} />
      <Route path="/resources/:resource/:id/edit" element={<RecordEditPage />} />
      <Route path={SLOT_INSPECTOR_PATH} element={<SlotInspectorPage />} />
      <Route
        path={RELEASES_PAGE_PATH}
        element={
          <Suspense fallback={<PageStatus status="loading" />}>
            <ReleasesPage />
          </Suspense>
        }
      />
    </Route>
    <Route path="*" element={<NotFoundPage />} />
  </Route>,
);
