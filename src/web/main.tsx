import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { BASE_PATH } from '../domain/constants';
import { downloadFile } from './app/browser-download';
import { startHostedLogin } from './app/hosted-login';
import { createHttpPlatform } from './app/platform';
import { createRoutes } from './app/routes';
import { SERVICE_BASE_URL } from './config';
import './styles.css';

const platform = createHttpPlatform({
  baseUrl: SERVICE_BASE_URL,
  startHostedLogin,
  download: downloadFile,
});

const router = createBrowserRouter(createRoutes(platform), { basename: BASE_PATH });
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
