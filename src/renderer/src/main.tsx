import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { primeFirstReads } from './firstReads'
import './styles/base.css'
import './styles/app.css'
import './styles/annotate.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html lost its #root element')
primeFirstReads()
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
