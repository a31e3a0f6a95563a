import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { BASE_PATH } from '../domain/constants';
import { browserServices } from './app/actors';
import { createRoutes } from './app/routes';
import './styles.css';

const router = createBrowserRouter(createRoutes(browserServices), { basename: BASE_PATH });
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
